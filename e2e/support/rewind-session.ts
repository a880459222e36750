import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A Claude Code session in the shape its 2.1 releases write, written here for the test: `rewinds` times the user
 * went back (Esc Esc) and typed another prompt after an answer — the abandoned prompt and its answer stay in the
 * file, the kept prompt hangs off the same answer — and `subagents` Task calls, each with its transcript in a file
 * of its own beside the session. Returns the session file's name.
 */
export function writeRewindSession(dir: string, rewinds: number, subagents: number): string {
  const sid = '5e55a0d1-7c2b-4e3f-9a8d-0b1c2d3e4f50';
  const lines: unknown[] = [];
  let n = 0;
  let clock = Date.UTC(2026, 10, 30, 9, 0, 0);
  const uuid = () => `0000${(++n).toString(16).padStart(4, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
  const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/shop', sessionId: sid, version: '2.1.14', gitBranch: 'main' };
  const at = () => new Date((clock += 4000)).toISOString();
  const user = (parent: string | null, content: unknown) => {
    const id = uuid();
    lines.push({ parentUuid: parent, ...base, type: 'user', message: { role: 'user', content }, uuid: id, timestamp: at() });
    return id;
  };
  const assistant = (parent: string, content: unknown[], k: number) => {
    const id = uuid();
    lines.push({ parentUuid: parent, ...base, message: { model: 'claude-sonnet-4-5-20250929', id: `msg_rw${k}`, type: 'message', role: 'assistant', content, stop_reason: 'end_turn', usage: { input_tokens: 4, cache_creation_input_tokens: 300 + k, cache_read_input_tokens: 9000 + 400 * k, output_tokens: 60 + (k % 9) * 30 } }, type: 'assistant', uuid: id, timestamp: at(), requestId: `req_rw${k}` });
    return id;
  };
  let call = 0;
  let last = assistant(user(null, 'The checkout total drifts by a cent on some carts. Walk through the cart code with me.'), [{ type: 'text', text: 'Sure: where do you want to start?' }], call++);
  const agents: Array<{ id: string; task: string; description: string }> = [];
  for (let k = 0; k < Math.max(rewinds, subagents); k++) {
    if (k < rewinds) {
      // The prompt the user went back from, and its answer: another branch of the file.
      const gone = user(last, `Rewrite step ${k} with floats instead.`);
      assistant(gone, [{ type: 'text', text: `Floats for step ${k} would drift further; here is why…` }], call++);
    }
    const kept = user(last, `Look at step ${k} of the cart total.`);
    if (k < subagents) {
      const task = `toolu_task${k}`;
      const agentId = (0xa3f9e1d2b7c40815n + BigInt(k)).toString(16);
      const asked = assistant(kept, [{ type: 'tool_use', id: task, name: 'Task', input: { description: `Audit step ${k} of the total`, prompt: `Find where step ${k} rounds.`, subagent_type: 'Explore' } }], call++);
      const result = user(asked, [{ type: 'tool_result', tool_use_id: task, content: `Step ${k} rounds per line.` }]);
      (lines[lines.length - 1] as Record<string, unknown>).toolUseResult = { agentId, status: 'completed' };
      agents.push({ id: agentId, task, description: `Audit step ${k} of the total` });
      last = assistant(result, [{ type: 'text', text: `Step ${k} rounds per line; it should round the sum.` }], call++);
    } else last = assistant(kept, [{ type: 'text', text: `Step ${k} is fine.` }], call++);
  }
  const name = `${sid}.jsonl`;
  writeFileSync(join(dir, name), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const folder = join(dir, sid, 'subagents');
  mkdirSync(folder, { recursive: true });
  agents.forEach((a, k) => {
    const side = { ...base, isSidechain: true, agentId: a.id };
    const first = `c${k.toString().padStart(7, '0')}-0000-4000-8000-000000000001`;
    const sub = [
      { parentUuid: null, ...side, type: 'user', message: { role: 'user', content: `Find where step ${k} rounds.` }, uuid: first, timestamp: at() },
      { parentUuid: first, ...side, message: { model: 'claude-haiku-4-5-20251001', id: `msg_sub${k}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: `Step ${k} rounds per line.` }], stop_reason: 'end_turn', usage: { input_tokens: 3, cache_creation_input_tokens: 800, cache_read_input_tokens: 0, output_tokens: 20 } }, type: 'assistant', uuid: `c${k.toString().padStart(7, '0')}-0000-4000-8000-000000000002`, timestamp: at(), requestId: `req_sub${k}` },
    ];
    writeFileSync(join(folder, `agent-${a.id}.jsonl`), sub.map((l) => JSON.stringify(l)).join('\n') + '\n');
    writeFileSync(join(folder, `agent-${a.id}.meta.json`), JSON.stringify({ agentType: 'Explore', spawnDepth: 1, model: 'claude-haiku-4-5-20251001', description: a.description }));
  });
  return name;
}
