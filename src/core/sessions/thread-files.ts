import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isPlainObject } from '../message.js';
import { claudeAgentKind } from './agent-kind.js';

export { claudeAgentKind };
import { agentIdOfFile, parentSessionOf, readAgentHead, runOfAgent, subagentFolderOf, taskRunsOf } from '../formats/claude-code/session-files.js';

/**
 * The threads of a session that live in files of their own: Claude Code's `<session>/subagents/agent-*.jsonl`
 * (a Task or Agent call's sub-agent, the compaction helper `agent-acompact-*`, a side question) and 2.0.x's
 * `agent-*.jsonl` beside the session, and Codex's rollouts whose `session_meta` names the session as their parent
 * (`source.subagent.thread_spawn.parent_thread_id` for a spawned agent, `parent_thread_id` for a review or a
 * guardian). Each is found from the session's file, and the session from each (both ways).
 */

export interface ThreadFile {
  /** Where it is (as found: `confine` decides which may be read). */
  file: string;
  /** The thread's id: Claude Code's agent id, Codex's thread id. */
  thread: string;
  /** What started it: sub-agent, compaction, side question, prompt suggestion (Claude Code); spawned, review, guardian, compact (Codex). */
  kind: string;
  /** What it is called: Codex's agent nickname, Claude Code's description (its .meta.json). */
  name?: string;
  /** Its agent type or role. */
  role?: string;
  model?: string;
  /** The id of the session's call that started it (a Task tool_use, a spawn_agent function_call), where the session records it. */
  callId?: string;
  bytes: number;
}

/** Whose thread a file is. */
export interface ThreadOwner {
  /** The session's id. */
  sessionId: string;
  /** The session's file, where it was found. */
  file?: string;
  /** This file's thread id and what started it. */
  thread: string;
  kind: string;
  name?: string;
}

/** Which paths may be read, and where they really are (the app's opened folders); every path by default. */
export type Confine = (path: string) => string | undefined;
const anywhere: Confine = (p) => p;

/** A session folder with more thread files than this lists the first ones (a runaway swarm). */
const MAX_FILES = 500;
/** How many rollouts of a Codex home are looked at for a session's children or parent. */
const MAX_ROLLOUTS = 20_000;
/** A file's first lines are read this far (a Codex session_meta holds the model's instructions: tens of KB). */
const HEAD_BYTES = 512 * 1024;

/** The first `limit` bytes of a file, cut at its last complete line when the limit cut it. */
export function headOf(file: string, limit = HEAD_BYTES): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(limit);
    const n = readSync(fd, buf, 0, limit, 0);
    const text = buf.subarray(0, n).toString('utf8');
    return n < limit ? text : text.slice(0, text.lastIndexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
}

const sizeOf = (file: string): number | undefined => {
  try {
    const st = statSync(file);
    return st.isFile() ? st.size : undefined;
  } catch {
    return undefined;
  }
};

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

// ---------- Claude Code ----------

function readMetaJson(file: string): { agentType?: string; description?: string; model?: string; toolUseId?: string } {
  try {
    const meta = JSON.parse(headOf(file, 64 * 1024)) as unknown;
    if (!isPlainObject(meta)) return {};
    return { agentType: str(meta.agentType), description: str(meta.description), model: str(meta.model), toolUseId: str(meta.toolUseId) };
  } catch {
    return {};
  }
}

function claudeThreadFiles(sessionFile: string, records: readonly unknown[], confine: Confine): ThreadFile[] {
  const runs = taskRunsOf(records);
  const sessionId = basename(sessionFile, '.jsonl');
  const found: Array<{ file: string; name: string; level: 'folder' | 'beside' }> = [];
  const folder = subagentFolderOf(sessionFile);
  const list = (dir: string) => {
    try {
      return readdirSync(dir).filter((n) => agentIdOfFile(n) !== undefined).sort();
    } catch {
      return [];
    }
  };
  for (const name of list(folder).slice(0, MAX_FILES)) found.push({ file: join(folder, name), name, level: 'folder' });
  // Claude Code 2.0 wrote sub-agents beside the sessions, each line naming the session it ran in.
  for (const name of list(dirname(sessionFile)).slice(0, MAX_FILES)) found.push({ file: join(dirname(sessionFile), name), name, level: 'beside' });
  return found.flatMap(({ file, name, level }) => {
    const real = confine(file);
    const bytes = real === undefined ? undefined : sizeOf(real);
    if (real === undefined || bytes === undefined) return [];
    let head;
    try {
      head = readAgentHead(headOf(real, 64 * 1024));
    } catch {
      return [];
    }
    if (level === 'beside' && head.sessionId !== sessionId) return [];
    const fileId = agentIdOfFile(name)!;
    const thread = head.agentId ?? fileId;
    const metaFile = confine(file.replace(/\.jsonl$/, '.meta.json'));
    const meta = metaFile ? readMetaJson(metaFile) : {};
    const callId = meta.toolUseId ?? runOfAgent(runs, head, fileId)?.callId;
    const name_ = meta.description;
    return [{ file, thread, kind: claudeAgentKind(fileId), bytes, ...(name_ ? { name: name_ } : {}), ...(meta.agentType ? { role: meta.agentType } : {}), ...(meta.model ? { model: meta.model } : {}), ...(callId ? { callId } : {}) }];
  });
}

function claudeOwner(file: string, confine: Confine): ThreadOwner | undefined {
  const id = agentIdOfFile(file);
  if (id === undefined) return undefined;
  let head;
  try {
    head = readAgentHead(headOf(confine(file) ?? file, 64 * 1024));
  } catch {
    return undefined;
  }
  const thread = head.agentId ?? id;
  const kind = claudeAgentKind(id);
  // 2.1: `<session>/subagents/agent-….jsonl`; 2.0: `agent-….jsonl` beside `<session>.jsonl`. Its lines name the
  // session; a file whose folder says otherwise (a copy) names it without a file.
  const inFolder = parentSessionOf(file);
  const sessionId = head.sessionId ?? (inFolder ? basename(inFolder, '.jsonl') : undefined);
  if (!sessionId) return undefined;
  const candidate = inFolder ?? join(dirname(file), `${sessionId}.jsonl`);
  const session = basename(candidate, '.jsonl') === sessionId ? candidate : undefined;
  const real = session ? confine(session) : undefined;
  return { sessionId, thread, kind, ...(session && real && sizeOf(real) !== undefined ? { file: session } : {}) };
}

// ---------- Codex ----------

/** A rollout's `session_meta` payload (its first line), or nothing. */
export function codexSessionMeta(file: string): Record<string, unknown> | undefined {
  let head: string;
  try {
    head = headOf(file);
  } catch {
    return undefined;
  }
  for (const line of head.split('\n').slice(0, 5)) {
    if (!line.includes('session_meta')) continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (isPlainObject(v) && v.type === 'session_meta' && isPlainObject(v.payload)) return v.payload;
    } catch {
      // A line cut by the head's limit: no meta read.
    }
  }
  return undefined;
}

/** What a rollout's `session_meta` says of the session it is a thread of: its parent's id and what started it. */
export function codexParentOf(meta: Record<string, unknown>): { parent: string; kind: string; name?: string; role?: string } | undefined {
  const source = isPlainObject(meta.source) ? meta.source : undefined;
  const sub = source?.subagent;
  const spawn = isPlainObject(sub) && isPlainObject(sub.thread_spawn) ? sub.thread_spawn : undefined;
  const parent = str(spawn?.parent_thread_id) ?? str(meta.parent_thread_id);
  if (!parent || parent === meta.id) return undefined;
  const kind = spawn ? 'spawned' : typeof sub === 'string' ? sub.replace(/_/g, ' ') : isPlainObject(sub) && typeof sub.other === 'string' ? sub.other : 'sub-agent';
  const name = str(spawn?.agent_nickname) ?? str(meta.agent_nickname);
  const role = str(spawn?.agent_role) ?? str(spawn?.agent_type) ?? str(meta.agent_role);
  return { parent, kind, ...(name ? { name } : {}), ...(role ? { role } : {}) };
}

const ROLLOUT = /^rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([\w-]+)\.jsonl$/;

/** The folders a Codex home keeps rollouts in (`sessions/YYYY/MM/DD`, `archived_sessions`), or the file's own folder. */
function rolloutFolders(file: string): string[] {
  const day = dirname(file);
  const home = dirname(dirname(dirname(dirname(day))));
  if (/^\d{2}$/.test(basename(day)) && basename(dirname(dirname(dirname(day)))) === 'sessions') return [join(home, 'sessions'), join(home, 'archived_sessions')];
  if (basename(day) === 'archived_sessions') return [join(dirname(day), 'sessions'), day];
  return [day];
}

/** Every rollout under these folders (three levels of date folders at most), newest folders first, up to the cap. */
function rollouts(folders: readonly string[], confine: Confine): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (out.length >= MAX_ROLLOUTS) return;
    let names: string[];
    try {
      names = readdirSync(dir).sort().reverse();
    } catch {
      return;
    }
    for (const n of names) {
      if (out.length >= MAX_ROLLOUTS) return;
      const p = join(dir, n);
      if (ROLLOUT.test(n)) out.push(p);
      else if (depth < 3 && /^\d+$/.test(n) && confine(p) !== undefined) walk(p, depth + 1);
    }
  };
  // A folder outside what may be read is not even listed.
  for (const f of folders) if (confine(f) !== undefined) walk(f, 0);
  return out;
}

/** The text of a function_call_output's output, whatever its shape (a string, or content items). */
const outputText = (output: unknown): string => (typeof output === 'string' ? output : JSON.stringify(output ?? ''));

/** The call of the session that started a thread: the call whose output names the thread's id (spawn_agent answers `{"agent_id": …}`). */
function codexCallNaming(records: readonly unknown[], thread: string): string | undefined {
  for (const r of records) {
    const item = isPlainObject(r) && isPlainObject(r.payload) ? r.payload : r;
    if (!isPlainObject(item) || (item.type !== 'function_call_output' && item.type !== 'custom_tool_call_output')) continue;
    if (typeof item.call_id === 'string' && outputText(item.output).includes(thread)) return item.call_id;
  }
  return undefined;
}

function codexThreadFiles(sessionFile: string, records: readonly unknown[], confine: Confine): ThreadFile[] {
  const meta = codexSessionMeta(confine(sessionFile) ?? sessionFile);
  const id = str(meta?.id) ?? ROLLOUT.exec(basename(sessionFile))?.[2];
  if (!id) return [];
  // A child starts after its parent: rollouts named earlier than the session are not looked into.
  const since = ROLLOUT.exec(basename(sessionFile))?.[1];
  const out: ThreadFile[] = [];
  for (const file of rollouts(rolloutFolders(sessionFile), confine)) {
    if (out.length >= MAX_FILES) break;
    const m = ROLLOUT.exec(basename(file));
    if (file === sessionFile || (since && m && m[1] < since)) continue;
    const real = confine(file);
    if (!real) continue;
    let head: string;
    try {
      head = headOf(real);
    } catch {
      continue;
    }
    if (!head.includes(id)) continue;
    const child = codexSessionMeta(real);
    const parent = child && codexParentOf(child);
    if (!child || parent?.parent !== id) continue;
    const thread = str(child.id) ?? m?.[2] ?? basename(file);
    const callId = codexCallNaming(records, thread);
    out.push({ file, thread, kind: parent.kind, bytes: sizeOf(real) ?? 0, ...(parent.name ? { name: parent.name } : {}), ...(parent.role ? { role: parent.role } : {}), ...(callId ? { callId } : {}) });
  }
  return out.sort((a, b) => basename(a.file).localeCompare(basename(b.file)));
}

function codexOwner(file: string, confine: Confine): ThreadOwner | undefined {
  const meta = codexSessionMeta(confine(file) ?? file);
  const parent = meta && codexParentOf(meta);
  if (!meta || !parent) return undefined;
  const thread = str(meta.id) ?? ROLLOUT.exec(basename(file))?.[2] ?? basename(file);
  const session = rollouts(rolloutFolders(file), confine).find((f) => ROLLOUT.exec(basename(f))?.[2] === parent.parent && confine(f) !== undefined);
  return { sessionId: parent.parent, thread, kind: parent.kind, ...(parent.name ? { name: parent.name } : {}), ...(session ? { file: session } : {}) };
}

// ---------- Both ----------

/** The session file's threads in files of their own (empty for a format that has none, or a file that is a thread itself). */
export function threadFilesOf(sessionFile: string, codecId: string, records: readonly unknown[], confine: Confine = anywhere): ThreadFile[] {
  if (codecId === 'claude-code') return agentIdOfFile(sessionFile) !== undefined ? [] : claudeThreadFiles(sessionFile, records, confine);
  if (codecId === 'codex-rollout') return codexThreadFiles(sessionFile, records, confine);
  return [];
}

/** The session a thread's own file is of (a Claude Code agent file, a Codex child rollout), or nothing. */
export function ownerOf(file: string, codecId: string, confine: Confine = anywhere): ThreadOwner | undefined {
  if (codecId === 'claude-code') return claudeOwner(file, confine);
  if (codecId === 'codex-rollout') return codexOwner(file, confine);
  return undefined;
}

/** A thread file's name for people: "sub-agent a1b2c3 (Explore the repo)", "spawned agent Descartes". */
export function threadFileTitle(t: Pick<ThreadFile, 'thread' | 'kind' | 'name'>): string {
  const what = t.kind === 'spawned' ? 'spawned agent' : t.kind === 'sub-agent' ? 'sub-agent' : t.kind === 'compaction' ? 'compaction helper' : t.kind;
  return `${what} ${t.thread}${t.name ? ` (${t.name})` : ''}`;
}

/** The thread file `wanted` names: its id, a prefix of one no other shares, or (Codex) its nickname. */
export function threadFileNamed(files: readonly ThreadFile[], wanted: string): ThreadFile | undefined {
  const exact = files.find((f) => f.thread === wanted || f.name === wanted);
  if (exact) return exact;
  const prefixed = wanted.length >= 4 ? files.filter((f) => f.thread.startsWith(wanted)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}
