import type { Message } from '../src/core/index.js';

const WORDS = 'the agent reads logs and writes a short report about billing exports flaky tests login redirects memory leaks timezone bugs queue limits retries backups indexes deploys rollbacks alerts dashboards incidents customers tickets latency errors warnings traces metrics payments refunds invoices cache keys sessions tokens budgets windows summaries decisions owners'.split(' ');

/** A deterministic history of `n` messages with realistic lengths, roles, timestamps and tool exchanges. */
export function generateHistory(n: number, seed = 7): Message[] {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const sentence = () => {
    const len = 6 + Math.floor(rand() * 18);
    const words = Array.from({ length: len }, () => WORDS[Math.floor(rand() * WORDS.length)]);
    return words.join(' ') + ` #${Math.floor(rand() * 100000)}.`;
  };
  const out: Message[] = [{ role: 'System', content: 'You are a support engineering agent.', timestamp: '2026-11-02T09:00:00.000000' }];
  let t = Date.parse('2026-11-02T09:00:00Z');
  for (let i = 1; i < n; i++) {
    t += 1000 + Math.floor(rand() * 5000);
    const kind = rand();
    const timestamp = new Date(t).toISOString();
    if (kind < 0.1) {
      out.push({ role: 'tool', content: { tool: 'search', hits: Math.floor(rand() * 500), sample: sentence() }, timestamp, metadata: { tool_call_id: `call_${i}` } });
    } else {
      const sentences = 1 + Math.floor(rand() * (kind < 0.5 ? 2 : 8));
      out.push({ role: kind < 0.5 ? 'user' : 'assistant', content: Array.from({ length: sentences }, sentence).join(' '), timestamp, category: kind < 0.5 ? 'input' : 'output' });
    }
  }
  return out;
}
