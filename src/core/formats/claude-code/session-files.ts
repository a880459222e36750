import { basename, dirname, join } from 'node:path';
import { isPlainObject } from '../../message.js';

/**
 * How Claude Code lays a session out on disk (2.1 and later): the main thread in `<project>/<sessionId>.jsonl`,
 * each sub-agent in `<project>/<sessionId>/subagents/agent-<agentId>.jsonl` beside an `agent-<agentId>.meta.json`
 * (its type, model, description). Earlier versions wrote sub-agents into the session file itself
 * (`isSidechain` lines), which the tree model reads as threads. A session resumed after its compaction may go on in
 * a new file, whose first lines hang from a message of the old one.
 */

const AGENT_FILE = /^agent-([\w-]+)\.jsonl$/;

/** The folder a session's sub-agent files are in. */
export function subagentFolderOf(sessionFile: string): string {
  return join(dirname(sessionFile), basename(sessionFile, '.jsonl'), 'subagents');
}

/** The agent id a sub-agent file is named by, or nothing for another file. */
export function agentIdOfFile(file: string): string | undefined {
  return AGENT_FILE.exec(basename(file))?.[1];
}

/** The session file a sub-agent file belongs to: `<project>/<sessionId>/subagents/agent-….jsonl` → `<project>/<sessionId>.jsonl`. */
export function parentSessionOf(agentFile: string): string | undefined {
  if (agentIdOfFile(agentFile) === undefined) return undefined;
  const folder = dirname(agentFile);
  if (basename(folder) !== 'subagents') return undefined;
  const session = dirname(folder);
  return join(dirname(session), `${basename(session)}.jsonl`);
}

/** What the first lines of a sub-agent file say of it: its agent id and the prompt it was given. */
export interface AgentHead {
  agentId?: string;
  sessionId?: string;
  prompt?: string;
}

const textOf = (content: unknown): string | undefined => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((b) => isPlainObject(b) && b.type === 'text' && typeof b.text === 'string').map((b) => (b as { text: string }).text);
  return texts.length > 0 ? texts.join('\n') : undefined;
};

/** The head of a sub-agent file (its first complete lines; a cut last line is left out). */
export function readAgentHead(head: string): AgentHead {
  const out: AgentHead = {};
  for (const line of head.split('\n').slice(0, 50)) {
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isPlainObject(r)) continue;
    if (out.agentId === undefined && typeof r.agentId === 'string') out.agentId = r.agentId;
    if (out.sessionId === undefined && typeof r.sessionId === 'string') out.sessionId = r.sessionId;
    if (out.prompt === undefined && r.type === 'user' && isPlainObject(r.message)) out.prompt = textOf(r.message.content);
    if (out.agentId !== undefined && out.prompt !== undefined) break;
  }
  return out;
}

/** A sub-agent's run as its parent's lines record it: the Task (Agent) call, its prompt, and the agent that ran it. */
export interface TaskRun {
  /** The call's tool_use id. */
  callId: string;
  prompt?: string;
  /** From the result: `toolUseResult.agentId`, or the "agentId: …" line Claude Code ends the result with. */
  agentId?: string;
}

/** The Task and Agent calls of a session's records, with the agent each result names. */
export function taskRunsOf(records: readonly unknown[]): TaskRun[] {
  const runs = new Map<string, TaskRun>();
  for (const r of records) {
    if (!isPlainObject(r) || !isPlainObject(r.message) || !Array.isArray(r.message.content)) continue;
    for (const b of r.message.content) {
      if (!isPlainObject(b)) continue;
      if (b.type === 'tool_use' && (b.name === 'Task' || b.name === 'Agent') && typeof b.id === 'string') {
        const prompt = isPlainObject(b.input) && typeof b.input.prompt === 'string' ? b.input.prompt : undefined;
        runs.set(b.id, { ...runs.get(b.id), callId: b.id, prompt });
      }
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string' && runs.has(b.tool_use_id)) {
        const said = isPlainObject(r.toolUseResult) && typeof r.toolUseResult.agentId === 'string' ? r.toolUseResult.agentId : /\bagentId: ([\w-]+)/.exec(textOf(b.content) ?? '')?.[1];
        if (said) runs.get(b.tool_use_id)!.agentId = said;
      }
    }
  }
  return [...runs.values()];
}

const oneLine = (s: string | undefined) => s?.replace(/\s+/g, ' ').trim();

/** The run an agent's file is of: by the agent id its parent's result names, else by the prompt it was given. */
export function runOfAgent(runs: readonly TaskRun[], head: AgentHead, fileAgentId: string | undefined): TaskRun | undefined {
  const id = head.agentId ?? fileAgentId;
  const byId = id !== undefined ? runs.find((r) => r.agentId === id) : undefined;
  if (byId) return byId;
  const prompt = oneLine(head.prompt);
  return prompt ? runs.find((r) => r.agentId === undefined && oneLine(r.prompt) === prompt) : undefined;
}

/**
 * The message a file's records hang from that is not in the file: a session resumed in a new file goes on from
 * a message of the old one (its first line's `parentUuid`, a compaction's `logicalParentUuid`). `lines`: every
 * line of the file, the tool's own records too.
 */
export function danglingParentOf(lines: readonly unknown[]): string | undefined {
  const own = new Set<string>();
  for (const r of lines) if (isPlainObject(r) && typeof r.uuid === 'string') own.add(r.uuid);
  for (const r of lines) {
    if (!isPlainObject(r) || r.isSidechain === true) continue;
    for (const key of ['parentUuid', 'logicalParentUuid']) {
      const p = r[key];
      if (typeof p === 'string' && !own.has(p)) return p;
    }
  }
  return undefined;
}
