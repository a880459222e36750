import type { DirEntry } from '../../../shared/contract.js';

/** Names as people number their runs: run2 before run10. */
const byName = new Intl.Collator(undefined, { numeric: true });

export interface FolderNode {
  name: string;
  /** "a/b" for the folder a/b; "" for the root. */
  path: string;
  folders: FolderNode[];
  files: DirEntry[];
  /** Files in this folder and below. */
  count: number;
}

type SortKey = 'name' | 'messages' | 'tokens' | 'modified';

const BY: Record<SortKey, (a: DirEntry, b: DirEntry) => number> = {
  name: (a, b) => byName.compare(a.path, b.path),
  messages: (a, b) => (b.messages ?? -1) - (a.messages ?? -1),
  tokens: (a, b) => (b.tokens ?? -1) - (a.tokens ?? -1),
  modified: (a, b) => b.modified - a.modified,
};

/** The folder tree of listed files: folders first (by name), then files in the chosen order. Pure. */
export function buildTree(entries: readonly DirEntry[], sort: SortKey): FolderNode {
  const root: FolderNode = { name: '', path: '', folders: [], files: [], count: 0 };
  const folders = new Map<string, FolderNode>([['', root]]);
  const folderOf = (path: string): FolderNode => {
    const hit = folders.get(path);
    if (hit) return hit;
    const cut = path.lastIndexOf('/');
    const parent = folderOf(cut === -1 ? '' : path.slice(0, cut));
    const node: FolderNode = { name: path.slice(cut + 1), path, folders: [], files: [], count: 0 };
    parent.folders.push(node);
    folders.set(path, node);
    return node;
  };
  for (const e of entries) {
    const cut = e.path.lastIndexOf('/');
    folderOf(cut === -1 ? '' : e.path.slice(0, cut)).files.push(e);
  }
  const finish = (node: FolderNode): number => {
    node.folders.sort((a, b) => byName.compare(a.name, b.name));
    node.files.sort(BY[sort]);
    node.count = node.files.length + node.folders.reduce((n, f) => n + finish(f), 0);
    return node.count;
  };
  finish(root);
  return root;
}

/** Short names for the format badge. */
export const FORMAT_BADGE: Record<string, string> = {
  'swarms-json': 'JSON',
  'swarms-yaml': 'YAML',
  'swarms-memory': 'MEMORY',
  'openai-chat': 'OpenAI',
  'openai-chat-jsonl': 'OpenAI JSONL',
  'anthropic-messages': 'Anthropic',
  'claude-ai-export': 'Claude.ai',
  'claude-code': 'Claude Code',
  'codex-rollout': 'Codex',
  sharegpt: 'ShareGPT',
  'sharegpt-jsonl': 'ShareGPT JSONL',
  langchain: 'LangChain',
};
