import { ConversationFileError } from '../errors.js';
import { decodeText } from '../read.js';
import { containerJson, nameOf, type Container } from './container.js';

type Path = Array<string | number>;

function parent(root: unknown, path: Path, file: string, line: number): { at: Record<string | number, unknown>; key: string | number } {
  let at = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) {
    const next = at?.[step];
    if (next === null || typeof next !== 'object') throw new ConversationFileError(file, `line ${line} changes ${path.join('.')}, which the session does not hold`, { line, column: 1 });
    at = next as Record<string | number, unknown>;
  }
  return { at, key: path[path.length - 1] };
}

/**
 * The session a VS Code chat log describes (`ObjectMutationLog`, src/vs/workbench/contrib/chat/common/model/
 * objectMutationLog.ts in microsoft/vscode): the first line `{kind: 0, v}` the whole session, then `kind` 1
 * sets the value at path `k` to `v`, 2 truncates the list at `k` to `i` (when given) and appends the values of
 * `v`, 3 deletes `k`. A last line cut short (VS Code still writing it) is left out.
 */
export function replayChatLog(text: string, file: string): unknown {
  const lines = text.split('\n');
  let state: unknown;
  let seen = false;
  lines.forEach((raw, n) => {
    const line = raw.trim();
    if (line === '') return;
    let entry: { kind?: unknown; k?: unknown; v?: unknown; i?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch (e) {
      if (lines.slice(n + 1).every((l) => l.trim() === '')) return;
      throw new ConversationFileError(file, `line ${n + 1} is not JSON (${(e as Error).message})`, { line: n + 1, column: 1 });
    }
    if (!seen) {
      if (entry.kind !== 0) throw new ConversationFileError(file, 'a chat log begins with the whole session ({"kind":0,"v":…})', { line: n + 1, column: 1 });
      state = entry.v;
      seen = true;
      return;
    }
    const path = Array.isArray(entry.k) ? (entry.k as Path) : [];
    switch (entry.kind) {
      case 0:
        state = entry.v;
        return;
      case 1: {
        if (path.length === 0) {
          state = entry.v;
          return;
        }
        const { at, key } = parent(state, path, file, n + 1);
        at[key] = entry.v;
        return;
      }
      case 2: {
        const { at, key } = path.length === 0 ? { at: { root: state } as Record<string | number, unknown>, key: 'root' } : parent(state, path, file, n + 1);
        const list = Array.isArray(at[key]) ? (at[key] as unknown[]) : [];
        if (typeof entry.i === 'number') list.length = Math.min(list.length, entry.i);
        if (Array.isArray(entry.v)) for (const item of entry.v as unknown[]) list.push(item);
        at[key] = list;
        if (path.length === 0) state = list;
        return;
      }
      case 3: {
        const { at, key } = parent(state, path, file, n + 1);
        if (Array.isArray(at) && typeof key === 'number') at.splice(key, 1);
        else delete at[key];
        return;
      }
      default:
        throw new ConversationFileError(file, `line ${n + 1}: a change of kind ${JSON.stringify(entry.kind)}, which VS Code's chat log does not have`, { line: n + 1, column: 1 });
    }
  });
  if (!seen) throw new ConversationFileError(file, 'the chat log is empty');
  return state;
}

/**
 * A VS Code chat session as VS Code 1.10x keeps it: `workspaceStorage/<hash>/chatSessions/<id>.jsonl` (and
 * `globalStorage/emptyWindowChatSessions/`), a log of changes to the session JSON the older `.json` files hold
 * whole. Read by replaying it into that JSON, which the VS Code chat reader reads. VS Code appends to the log
 * and rewrites it when it grows; a second writer of that log is not safe, so it is read-only here.
 */
export const vscodeChatLogContainer: Container = {
  id: 'vscode-chat-log',
  label: 'VS Code chat session log',
  format: 'vscode-chat',
  extensions: ['.jsonl'],
  holds: (file, head) => file.toLowerCase().endsWith('.jsonl') && /^\s*\{\s*"kind"\s*:\s*0\s*,\s*"v"\s*:/.test(Buffer.from(head).toString('latin1')),
  open(file, bytes, limits) {
    const session = replayChatLog(decodeText(bytes, file), file);
    return {
      text: containerJson(session, limits.maxInflatedBytes, file),
      format: 'vscode-chat',
      name: nameOf(file).replace(/\.jsonl$/i, '.json'),
      readOnly: 'VS Code keeps this session as a log it appends to: edits are saved with Save As into a chat .json file',
    };
  },
};
