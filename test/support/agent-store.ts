// A small store of agent sessions shaped like ~/.claude/projects (projects named by their encoded path, sessions
// with sub-agents in <session>/subagents/) and ~/.codex/sessions (rollouts by date), written for the sessions tests
// (unit and e2e): every figure a test checks is known here.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StoreSession {
  /** Path under the store, as the app names it. */
  path: string;
  title: string;
  project: string;
  model: string;
  tool: 'Claude Code' | 'Codex';
  /** Hours before `now` of its last message. */
  hoursAgo: number;
  agents: string[];
  /** A word only this session says (in an answer). */
  word: string;
  secret: boolean;
}

const HOUR = 3_600_000;
let n = 0;
const id = (prefix: string) => `${prefix}${(++n).toString(16).padStart(8, '0')}`;
const uuid = () => `${id('')}-1f3a-4c5e-9a8b-${(n * 7919).toString(16).padStart(12, '0')}`;

/** A Claude Code session's lines: prompts and streamed answers with usage, then `agents` sub-agents' files. */
function claudeLines(s: StoreSession, sessionId: string, cwd: string, end: number, sidechain?: string): string[] {
  const lines: string[] = [];
  let parent: string | null = null;
  const turns = 3;
  let t = end - turns * 4 * 60_000;
  const base = () => ({ parentUuid: parent, isSidechain: sidechain !== undefined, userType: 'external', cwd, sessionId, version: '2.1.81', gitBranch: 'main', ...(sidechain ? { agentId: sidechain } : {}) });
  for (let k = 0; k < turns; k++) {
    const u = uuid();
    const prompt = k === 0 ? (sidechain ? `Look through the code for ${s.title.toLowerCase()}` : s.title) : `Go on with step ${k + 1}.`;
    lines.push(JSON.stringify({ ...base(), type: 'user', message: { role: 'user', content: prompt }, uuid: u, timestamp: new Date((t += 60_000)).toISOString() }));
    parent = u;
    const a = uuid();
    const secret = s.secret && k === 1 && !sidechain ? ` The deploy used GITHUB_TOKEN=ghp_${'Qw7'.repeat(12)} from the env file.` : '';
    const text = k === 2 && !sidechain ? `Done: the ${s.word} case is handled and tested.${secret}` : `Step ${k + 1} checked.${secret}`;
    lines.push(
      JSON.stringify({
        ...base(),
        type: 'assistant',
        message: { id: id('msg_01'), type: 'message', role: 'assistant', model: sidechain ? 'claude-haiku-4-5-20251001' : s.model, content: [{ type: 'text', text }], stop_reason: 'end_turn', usage: { input_tokens: 1200 + k * 300, cache_creation_input_tokens: 2000, cache_read_input_tokens: 9000 * (k + 1), output_tokens: 400 + k * 100 } },
        requestId: id('req_011C'),
        uuid: a,
        timestamp: new Date((t += 3 * 60_000)).toISOString(),
      }),
    );
    parent = a;
  }
  return lines;
}

/** A Codex rollout: its meta, the model, a prompt, an answer and the usage the CLI reports. */
function codexLines(s: StoreSession, end: number): string[] {
  const at = (d: number) => new Date(end - d).toISOString();
  const sid = `0199a0b1-2c3d-7e4f-8a9b-${(++n).toString(16).padStart(12, '0')}`;
  return [
    { timestamp: at(60_000), type: 'session_meta', payload: { id: sid, timestamp: at(60_000), cwd: s.project, originator: 'codex_cli_rs', cli_version: '0.63.0', instructions: null, source: 'cli', model_provider: 'openai' } },
    { timestamp: at(59_000), type: 'turn_context', payload: { cwd: s.project, approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write' }, model: s.model, effort: 'medium', summary: 'auto' } },
    { timestamp: at(58_000), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: s.title }] } },
    { timestamp: at(57_000), type: 'event_msg', payload: { type: 'user_message', message: s.title, images: [] } },
    { timestamp: at(2_000), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `The flag was parsed after the ${s.word} check; it is first now.` }] } },
    { timestamp: at(1_000), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: 8123, cached_input_tokens: 6400, output_tokens: 410, reasoning_output_tokens: 256, total_tokens: 8533 }, last_token_usage: { input_tokens: 8123, cached_input_tokens: 6400, output_tokens: 410, reasoning_output_tokens: 256, total_tokens: 8533 }, model_context_window: 272000 }, rate_limits: null } },
  ].map((v) => JSON.stringify(v));
}

/**
 * Writes the store under `dir`: `projects/<encoded cwd>/<session>.jsonl` (sub-agents in `<session>/subagents/`)
 * and `codex/sessions/YYYY/MM/DD/rollout-….jsonl`, the last messages `hoursAgo` before `now`.
 */
export function writeAgentStore(dir: string, now: number): StoreSession[] {
  const sessions: Array<Omit<StoreSession, 'path'>> = [
    { title: 'Fix the checkout total rounding', project: '/home/dev/code/shop', model: 'claude-opus-4-5-20251101', tool: 'Claude Code', hoursAgo: 1, agents: ['a1f0c0ffee000001', 'a1f0c0ffee000002'], word: 'quixotic', secret: false },
    { title: 'Add a refund endpoint to the payments API', project: '/home/dev/code/shop', model: 'claude-sonnet-4-5-20250929', tool: 'Claude Code', hoursAgo: 80, agents: [], word: 'walrus', secret: true },
    { title: 'Why is the admin login slow on Mondays', project: '/home/dev/code/shop-admin', model: 'claude-haiku-4-5-20251001', tool: 'Claude Code', hoursAgo: 24 * 40, agents: ['a1f0c0ffee000003'], word: 'gazelle', secret: false },
    { title: 'Why does cli --version print nothing', project: '/home/dev/cli', model: 'gpt-5-codex', tool: 'Codex', hoursAgo: 30, agents: [], word: 'heron', secret: false },
  ];
  const out: StoreSession[] = [];
  for (const s of sessions) {
    const end = now - s.hoursAgo * HOUR;
    if (s.tool === 'Codex') {
      const d = new Date(end);
      const p = (x: number) => String(x).padStart(2, '0');
      const folder = join('codex', 'sessions', String(d.getUTCFullYear()), p(d.getUTCMonth() + 1), p(d.getUTCDate()));
      const path = `${folder}/rollout-${d.toISOString().slice(0, 19).replace(/:/g, '-')}-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl`;
      mkdirSync(join(dir, folder), { recursive: true });
      const full: StoreSession = { ...s, path };
      writeFileSync(join(dir, path), codexLines(full, end).join('\n') + '\n');
      out.push(full);
      continue;
    }
    const sessionId = uuid();
    const folder = `projects/${s.project.replace(/\//g, '-')}`;
    const path = `${folder}/${sessionId}.jsonl`;
    mkdirSync(join(dir, folder), { recursive: true });
    const full: StoreSession = { ...s, path };
    writeFileSync(join(dir, path), claudeLines(full, sessionId, s.project, end).join('\n') + '\n');
    for (const agent of s.agents) {
      const sub = join(dir, folder, sessionId, 'subagents');
      mkdirSync(sub, { recursive: true });
      writeFileSync(join(sub, `agent-${agent}.jsonl`), claudeLines(full, sessionId, s.project, end - 30 * 60_000, agent).join('\n') + '\n');
      writeFileSync(join(sub, `agent-${agent}.meta.json`), JSON.stringify({ agentType: 'Explore', description: 'Explore the code' }));
    }
    out.push(full);
  }
  return out;
}
