// A heavy user's ~/.claude/projects, generated: projects of Claude Code sessions in the shape Claude Code 2.1
// writes them (a line per content block of a streamed response, parallel tool calls, sub-agents in
// <session>/subagents/, now and then a compaction), and a few Codex rollouts, of realistic text.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from './corpus.js';

export interface StoreShape {
  projects: number;
  sessions: number;
  /** About how many bytes in all. */
  bytes: number;
  seed?: number;
}

export interface WrittenStore {
  dir: string;
  files: number;
  sessions: number;
  bytes: number;
  /** One session file an agent could be appending to (the bench appends a line to it). */
  live: string;
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let r = Math.imul(s ^ (s >>> 15), 1 | s);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (rand: () => number, n: number) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
const uuid = (rand: () => number) => `${hex(rand, 8)}-${hex(rand, 4)}-4${hex(rand, 3)}-a${hex(rand, 3)}-${hex(rand, 12)}`;

const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'claude-haiku-4-5-20251001', 'claude-sonnet-4-6'];
const TOOLS = ['Read', 'Bash', 'Grep', 'Edit', 'Glob', 'Write'];

/** One Claude Code session's lines, about `target` bytes; sub-agents' lines are returned apart. */
function claudeSession(rand: () => number, target: number, sessionId: string, cwd: string, start: number, subagents: number): { lines: string[]; agents: Array<{ id: string; lines: string[] }>; end: number } {
  const { prose, code } = loadCorpus();
  const pick = <T>(l: readonly T[]) => l[Math.floor(rand() * l.length)];
  const model = pick(MODELS);
  let t = start;
  const base = (parent: string | null, extra: Record<string, unknown> = {}) => ({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.81', gitBranch: 'main', ...extra });
  const lines: string[] = [];
  const agents: Array<{ id: string; lines: string[] }> = [];
  let bytes = 0;
  let parent: string | null = null;
  const push = (v: unknown) => {
    const s = JSON.stringify(v);
    lines.push(s);
    bytes += s.length + 1;
  };
  const at = () => new Date((t += 1000 + Math.floor(rand() * 20000))).toISOString();
  let context = 12000;
  let turn = 0;
  while (bytes < target) {
    const u = uuid(rand);
    push({ ...base(parent), type: 'user', message: { role: 'user', content: `${pick(prose)}\n\n${pick(prose).split(/(?<=[.!?])\s+/)[0]}` }, uuid: u, timestamp: at() });
    parent = u;
    // A response of a few calls, each written as a line per content block under one message id.
    for (let call = 0, calls = 1 + Math.floor(rand() * 4); call < calls && bytes < target * 1.2; call++) {
      const id = `msg_01${hex(rand, 22)}`;
      const requestId = `req_011C${hex(rand, 18)}`;
      const parallel = rand() < 0.3 ? 2 + Math.floor(rand() * 3) : rand() < 0.7 ? 1 : 0;
      const blocks: Array<Record<string, unknown>> = [];
      if (rand() < 0.5) blocks.push({ type: 'thinking', thinking: pick(prose), signature: hex(rand, 64) });
      blocks.push({ type: 'text', text: rand() < 0.25 ? '```ts\n' + pick(code) + '\n```' : pick(prose) });
      const calls2 = Array.from({ length: parallel }, () => ({ type: 'tool_use', id: `toolu_01${hex(rand, 22)}`, name: pick(TOOLS), input: { file_path: `${cwd}/src/${hex(rand, 6)}.ts`, pattern: pick(prose).slice(0, 30) } }));
      const all = [...blocks, ...calls2];
      context += 800 + Math.floor(rand() * 4000);
      const output = 50 + Math.floor(rand() * 900);
      const usage = (final: boolean) => ({ input_tokens: 3, cache_creation_input_tokens: Math.floor(rand() * 3000), cache_read_input_tokens: context, output_tokens: final ? output : 1 + Math.floor(rand() * 20), service_tier: 'standard' });
      all.forEach((block, k) => {
        const lu = uuid(rand);
        push({ ...base(parent), message: { id, type: 'message', role: 'assistant', model, content: [block], stop_reason: null, stop_sequence: null, usage: usage(k === all.length - 1) }, requestId, type: 'assistant', uuid: lu, timestamp: at() });
        parent = lu;
      });
      // Results, each on the line after the last call, as 2.1.81 chains them.
      for (const c of calls2) {
        const ru = uuid(rand);
        const content = rand() < 0.7 ? pick(code) : pick(prose);
        push({ ...base(parent), type: 'user', message: { role: 'user', content: [{ tool_use_id: c.id, type: 'tool_result', content }] }, uuid: ru, timestamp: at(), toolUseResult: { stdout: content.slice(0, 200), stderr: '', interrupted: false } });
        parent = ru;
      }
      if (parallel === 0) break;
    }
    if (rand() < 0.15) push({ type: 'file-history-snapshot', messageId: uuid(rand), snapshot: { messageId: uuid(rand), trackedFileBackups: {}, timestamp: at() }, isSnapshotUpdate: false });
    // A compaction now and then in a long session.
    if (++turn % 60 === 0) {
      const b = uuid(rand);
      // Keys in Claude Code's order: the chain it ends right after the null parent.
      const { parentUuid: _none, ...rest } = base(null);
      push({ parentUuid: null, logicalParentUuid: parent, ...rest, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, timestamp: at(), uuid: b, level: 'info', compactMetadata: { trigger: 'auto', preTokens: context } });
      const s = uuid(rand);
      push({ ...base(b), type: 'user', message: { role: 'user', content: `This session is being continued from a previous conversation that ran out of context. ${pick(prose)}` }, isCompactSummary: true, isVisibleInTranscriptOnly: true, uuid: s, timestamp: at() });
      parent = s;
      context = 15000;
    }
  }
  for (let a = 0; a < subagents; a++) {
    const id = `a${hex(rand, 16)}`;
    const agentLines: string[] = [];
    let p: string | null = null;
    for (let k = 0; k < 6 + Math.floor(rand() * 20); k++) {
      const u = uuid(rand);
      const user = k % 2 === 0;
      const v = user
        ? { ...base(p, { isSidechain: true, agentId: id }), type: 'user', message: { role: 'user', content: k === 0 ? pick(prose) : [{ tool_use_id: `toolu_01${hex(rand, 22)}`, type: 'tool_result', content: pick(code) }] }, uuid: u, timestamp: at() }
        : { ...base(p, { isSidechain: true, agentId: id }), type: 'assistant', message: { id: `msg_01${hex(rand, 22)}`, type: 'message', role: 'assistant', model: 'claude-haiku-4-5-20251001', content: [{ type: 'text', text: pick(prose) }], usage: { input_tokens: 5, cache_read_input_tokens: 9000, cache_creation_input_tokens: 400, output_tokens: 120 } }, requestId: `req_011C${hex(rand, 18)}`, uuid: u, timestamp: at() };
      agentLines.push(JSON.stringify(v));
      p = u;
    }
    agents.push({ id, lines: agentLines });
  }
  return { lines, agents, end: t };
}

/** Writes the store under `dir`/projects (what CLAUDE_CONFIG_DIR names) and a few Codex rollouts beside. */
export function writeStore(dir: string, shape: StoreShape): WrittenStore {
  const rand = rng(shape.seed ?? 11);
  const projectsDir = join(dir, 'projects');
  mkdirSync(projectsDir, { recursive: true });
  let files = 0;
  let bytes = 0;
  let live = '';
  const mean = shape.bytes / shape.sessions;
  let t = Date.parse('2026-09-01T08:00:00Z');
  for (let s = 0; s < shape.sessions; s++) {
    const project = s % shape.projects;
    const cwd = `/home/user/code/project${String(project).padStart(2, '0')}`;
    const folder = join(projectsDir, cwd.replace(/\//g, '-'));
    mkdirSync(folder, { recursive: true });
    // Most sessions short, a few long (a heavy-tailed spread around the mean).
    const r = rand();
    const target = Math.max(4000, Math.floor(mean * (r < 0.6 ? 0.2 + rand() * 0.5 : r < 0.95 ? 0.8 + rand() * 2 : 4 + rand() * 8)));
    const id = uuid(rand);
    const subagents = rand() < 0.15 ? 1 + Math.floor(rand() * 3) : 0;
    const session = claudeSession(rand, target, id, cwd, t, subagents);
    t = session.end + Math.floor(rand() * 3_600_000);
    const file = join(folder, `${id}.jsonl`);
    const text = session.lines.join('\n') + '\n';
    writeFileSync(file, text);
    bytes += text.length;
    files++;
    live = file;
    if (session.agents.length > 0) {
      const sub = join(folder, id, 'subagents');
      mkdirSync(sub, { recursive: true });
      for (const a of session.agents) {
        const at = join(sub, `agent-${a.id}.jsonl`);
        const agentText = a.lines.join('\n') + '\n';
        writeFileSync(at, agentText);
        writeFileSync(join(sub, `agent-${a.id}.meta.json`), JSON.stringify({ agentType: 'Explore', description: 'Explore the code' }));
        bytes += agentText.length;
        files++;
      }
    }
  }
  return { dir, files, sessions: shape.sessions, bytes, live };
}
