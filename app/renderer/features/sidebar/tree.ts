import type { DirEntry } from '../../../shared/contract.js';
import { distinctTitles } from '../../../../src/core/util/shared-start.js';

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

export type SortKey = 'name' | 'messages' | 'tokens' | 'modified';

/**
 * A dataset's conversations in the sidebar's order: biggest first when the files are sorted by messages or
 * tokens (tokens once the file has been counted), else as the file holds them (line 1 first). Pure.
 */
export function conversationOrder(e: DirEntry, sort: SortKey): number[] {
  const n = e.titles?.length ?? 0;
  const order = Array.from({ length: n }, (_, i) => i);
  const by = sort === 'messages' ? e.conversationMessages : sort === 'tokens' ? e.conversationTokens : undefined;
  if (by && by.length === n) order.sort((a, b) => by[b] - by[a] || a - b);
  return order;
}

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
  'codex-history': 'Codex prompts',
  sharegpt: 'ShareGPT',
  'sharegpt-jsonl': 'ShareGPT JSONL',
  langchain: 'LangChain',
  'openai-chat-dataset': 'OpenAI dataset',
  'llamafactory-v1': 'LLaMA-Factory',
  'chatgpt-export': 'ChatGPT',
  'oasst-trees': 'OASST',
  'gemini-cli': 'Gemini CLI',
  'gemini-cli-jsonl': 'Gemini CLI',
  'gemini-contents': 'Gemini API',
  'aider-chat': 'Aider',
  'aider-input': 'Aider input',
  'copilot-cli-events': 'Copilot CLI',
  'opencode-export': 'OpenCode',
  'swe-agent-traj': 'SWE-agent',
  'cline-ui-messages': 'Cline',
  'sillytavern-chat': 'SillyTavern',
  'vscode-chat': 'VS Code chat',
  'continue-session': 'Continue',
  'open-webui-export': 'Open WebUI',
  'grok-export': 'Grok',
  'ai-studio-prompt': 'AI Studio',
  'inspect-eval-json': 'Inspect',
  'atif-trajectory': 'ATIF',
  'openhands-trajectory': 'OpenHands',
  'cline-task-md': 'Cline',
  'copilot-cli-session': 'Copilot CLI',
  'otel-genai': 'OTel',
  'opencode-store': 'OpenCode',
  'cursor-chats': 'Cursor',
  'crush-store': 'Crush',
  'codex-thread-index': 'Codex index',
  'codex-session-index': 'Codex names',
  'claude-code-history': 'Claude prompts',
  'opencode-prompt-history': 'OpenCode prompts',
  'gemini-cli-logs': 'Gemini prompts',
  'copilot-cli-workspace': 'Copilot meta',
  'continue-session-index': 'Continue index',
};

/** One line of the sidebar's list: a folder, a file, or one conversation of a file that holds several. */
export type SidebarRow =
  | { kind: 'folder'; node: FolderNode; depth: number }
  | { kind: 'file'; entry: DirEntry; depth: number; /** Where the part of its name that tells it from its neighbours starts. */ distinct: number }
  | { kind: 'conversation'; entry: DirEntry; index: number; title: string; /** What the line shows of the title (its start shared with its siblings left out). */ label: string; depth: number; /** A part of a file read a part at a time: the path it opens as. */ part?: string };

/**
 * The tree as the lines it shows, in order: what a virtual list renders a window of. A collapsed folder shows
 * none of its contents; a file's conversations show when it is expanded. Pure.
 */
export function flattenTree(root: FolderNode, collapsed: ReadonlySet<string>, expanded: (entry: DirEntry) => boolean, sort: SortKey = 'name'): SidebarRow[] {
  const rows: SidebarRow[] = [];
  const walk = (node: FolderNode, depth: number) => {
    for (const f of node.folders) {
      rows.push({ kind: 'folder', node: f, depth });
      if (!collapsed.has(f.path)) walk(f, depth + 1);
    }
    const distinct = distinctStarts(node.files.map((e) => baseName(e.path)));
    for (const e of node.files) {
      rows.push({ kind: 'file', entry: e, depth, distinct: distinct.get(baseName(e.path)) ?? 0 });
      if (e.parts && expanded(e)) e.parts.forEach((p, index) => rows.push({ kind: 'conversation', entry: e, index, title: p.title, label: p.title, depth, part: p.path }));
      else if ((e.conversations ?? 1) > 1 && expanded(e)) {
        const titles = Array.from({ length: e.conversations ?? 0 }, (_, index) => e.titles?.[index] ?? `conversation #${index}`);
        const labels = distinctTitles(titles);
        for (const index of conversationOrder(e, sort)) rows.push({ kind: 'conversation', entry: e, index, title: titles[index], label: labels[index], depth });
      }
    }
  };
  walk(root, 0);
  return rows;
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * For each of a folder's names, where the part that tells it from the others starts: the word in which it
 * first differs from its nearest neighbours (`session-ALPHA-export.jsonl` and `session-BETA-export.jsonl` differ
 * at ALPHA and BETA). A cut name keeps that part and what follows it in view. Pure.
 */
export function distinctStarts(names: readonly string[]): Map<string, number> {
  // The endings are always shown: names are told apart by what comes before them (ALPHA.json beside ALPHA.jsonl
  // is told from BETA.json by ALPHA; the two ALPHAs by their endings).
  const bodyOf = (name: string) => name.slice(0, endingStart(name));
  const sorted = [...new Set(names.map(bodyOf))].sort();
  const common = (a: string | undefined, b: string) => {
    if (a === undefined) return 0;
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  const out = new Map<string, number>();
  sorted.forEach((name, i) => {
    const shared = Math.max(common(sorted[i - 1], name), common(sorted[i + 1], name));
    // Back to the start of the word it differs in: "run-1" and "run-10" differ in "1…", shown whole.
    let start = shared;
    while (start > 0 && !/[-_. /]/.test(name[start - 1])) start--;
    out.set(name, start);
  });
  return new Map(names.map((name) => [name, out.get(bodyOf(name)) ?? 0]));
}

/** Where a name's ending starts: its extension and the word before it (`final.jsonl`), shown whatever the width. */
export function endingStart(name: string): number {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return Math.max(0, name.length - 10);
  let k = dot;
  while (k > 0 && !/[-_. ]/.test(name[k - 1])) k--;
  return name.length - k <= 16 ? k : Math.max(dot, name.length - 10);
}
