// Writes examples/: a small, realistic conversations directory (deterministic: same output every run).
// Run with `npx tsx scripts/generate-examples.ts`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getTokenizer, memoryHeader, serializeConversation, type Message } from '../src/core/index.js';

const OUT = join(import.meta.dirname, '..', 'examples');
const tok = getTokenizer('cl100k_base');

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
let clock = Date.parse('2026-11-02T09:00:00.000Z');
const stamp = (stepSeconds = 5) => {
  clock += Math.floor(stepSeconds * 1000 * (0.5 + rand()));
  return new Date(clock).toISOString().replace('Z', '').padEnd(26, '0');
};
let idn = 0;
const id = () => {
  idn++;
  const h = idn.toString(16).padStart(12, '0');
  return `3f6c1a2e-9b7d-4c1e-8a2f-${h}`;
};

function message(role: string, content: unknown, extra: Partial<Message> = {}): Message {
  const m: Message = { role, content, timestamp: stamp(), message_id: id() };
  if (extra.category) m.category = extra.category;
  if (extra.metadata) m.metadata = extra.metadata;
  // Counted as the Python class does (cl100k_base), so some differ from a gpt-5.4 recount, as in real files.
  m.token_count = typeof content === 'string' ? tok.count(content) : tok.count(JSON.stringify(content));
  for (const [k, v] of Object.entries(extra)) if (!(k in m)) m[k] = v;
  return m;
}

const TOPICS = ['the billing export', 'a flaky integration test', 'the login redirect loop', 'CSV imports over 2 GB', 'rate limits on the search API', 'the nightly backup job', 'timezone handling in reports', 'a memory leak in the worker'];
const ASKS = [
  'Can you look into {t}? Customers started reporting it this morning.',
  'Any update on {t}? The on-call engineer wants a summary.',
  'I think {t} is related to last week\u2019s deploy. Can you check the diff?',
  'Please write a short status note about {t} for the incident channel.',
  'What would you try next for {t}?',
];
const ANSWERS = [
  'I checked the logs for {t}. The first error appears at 09:14 UTC, right after the config reload. I suggest rolling back the reload and adding a guard for empty values.',
  'Here is what I found about {t}:\n\n1. The failure only happens when the queue is longer than 500 items.\n2. Retries make it worse because they share one connection pool.\n3. A fix is to cap concurrency at 8 and back off exponentially.\n\nShall I open a pull request?',
  'Status for {t}: mitigated. Root cause is a missing index on `events.created_at`; queries degrade once the table passes 40M rows. Follow-up: add the index online and a regression test.',
  'I could not reproduce {t} locally. Could you share the request ID from one of the failing calls? With it I can trace the exact path through the gateway.',
  'Done. I updated the runbook for {t} and linked the dashboard. Let me know if the alert fires again.',
];

function supportThread(n: number): Message[] {
  const out = [message('System', 'You are Relay, a support engineering agent. Be precise, cite log lines, and never invent ticket numbers.')];
  while (out.length < n) {
    const t = pick(TOPICS);
    out.push(message('user', pick(ASKS).replace('{t}', t), { category: 'input' }));
    if (rand() < 0.2 && out.length < n) {
      out.push(message('tool', { tool: 'search_logs', query: t, hits: Math.floor(rand() * 400), sample: ['ERROR pool exhausted', 'WARN retry 3/5'] }));
    }
    if (out.length < n) out.push(message('assistant', pick(ANSWERS).replace('{t}', t), { category: 'output' }));
  }
  return out.slice(0, n);
}

function codingSession(): Message[] {
  return [
    message('System', 'You are a careful coding assistant working in the repository `acme/payments`.'),
    message('User', 'Follow the repository style guide. Prefer small commits.'),
    message('user', 'The refund endpoint returns 500 when the amount has more than two decimals. Can you fix it?', { category: 'input' }),
    message('assistant', 'The handler parses the amount with `parseFloat` and then multiplies by 100, which produces 1999.9999999 for 19.999. I will switch to parsing the decimal string into integer cents and reject more than two decimals with a 400.', { category: 'output' }),
    message('user', 'Sounds good. Also add a test for the 400 case.', { category: 'input' }),
    message('assistant', "```ts\nit('rejects amounts with three decimals', async () => {\n  const res = await refund({ amount: '19.999' });\n  expect(res.status).toBe(400);\n});\n```\nThe test fails before the change and passes after it.", { category: 'output' }),
    message('user', 'Great — please write the commit message.', { category: 'input' }),
    message('assistant', 'fix(refunds): parse amounts as integer cents\n\nAmounts with more than two decimals are now rejected with 400 instead of failing with 500.', { category: 'output' }),
  ];
}

function toolSession(): Message[] {
  const call = (cid: string, city: string) => ({ id: cid, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } });
  return [
    message('System', 'You can call get_weather(city) and get_forecast(city, days).'),
    message('user', 'Pack for a trip: Lisbon tomorrow, then Porto for three days.', { category: 'input' }),
    message('assistant', '', { metadata: { tool_calls: [call('call_a1', 'Lisbon'), call('call_a2', 'Porto')] } }),
    message('tool', JSON.stringify({ city: 'Lisbon', temp_c: 19, sky: 'sunny', wind_kmh: 14 }), { metadata: { tool_call_id: 'call_a1', name: 'get_weather' } }),
    message('tool', JSON.stringify({ city: 'Porto', temp_c: 15, sky: 'showers', wind_kmh: 22 }), { metadata: { tool_call_id: 'call_a2', name: 'get_weather' } }),
    message('assistant', '', { metadata: { tool_calls: [{ id: 'call_b1', type: 'function', function: { name: 'get_forecast', arguments: '{"city": "Porto", "days": 3}' } }] } }),
    message('tool', JSON.stringify({ city: 'Porto', days: [{ high: 16, rain_mm: 4 }, { high: 17, rain_mm: 0 }, { high: 14, rain_mm: 9 }] }), { metadata: { tool_call_id: 'call_b1', name: 'get_forecast' } }),
    message('assistant', 'Lisbon will be sunny around 19 °C, so a light jacket is enough. Porto is cooler with showers on two of the three days: bring a rain shell and shoes that can get wet.', { category: 'output' }),
  ];
}

function debate(): Message[] {
  const m = (role: string, content: string, turn: number, visible: string | string[]) => ({ role, content, turn, visible_to: visible }) as Message;
  return [
    m('Moderator', 'Motion: long-running agents should summarise old turns rather than truncate them.', 0, 'all'),
    m('Proponent', 'Summaries keep decisions and names that truncation silently loses.', 1, 'all'),
    m('Opponent', 'Summaries drift: each compaction rewrites facts a little. Truncation is at least honest.', 1, 'all'),
    m('Proponent', 'Private note: cite the incident where truncation dropped the customer ID.', 1, ['Proponent']),
    m('Moderator', 'Rebuttals, one paragraph each.', 2, 'all'),
    m('Opponent', 'Keep recent turns verbatim and you get most of the benefit without an LLM call.', 2, 'all'),
    m('Proponent', 'That is the summarising strategy with keep_recent_messages = 10.', 2, 'all'),
    m('Moderator', 'Private scoring: Proponent 7, Opponent 6.', 3, ['Moderator']),
  ];
}

function write(name: string, messages: Message[], format: 'json' | 'yaml') {
  writeFileSync(join(OUT, name), serializeConversation(messages, { format }));
}

mkdirSync(OUT, { recursive: true });
write('coding_session.json', codingSession(), 'json');
write('trip_planner_tools.json', toolSession(), 'json');
write('debate_multi_agent.json', debate(), 'json');
write('research_notes.yaml', supportThread(24).map((m) => ({ ...m, role: m.role === 'assistant' ? 'Researcher' : m.role })), 'yaml');
write('support_thread_long.json', supportThread(3000), 'json');
writeFileSync(
  join(OUT, 'wrapped_run.json'),
  serializeConversation(supportThread(12), {
    format: 'json',
    shape: 'wrapper',
    root: { metadata: { id: '5b2f0c7d9e8a41c3b6d2e1f0a9b8c7d6', name: 'wrapped-run', created_at: '2026-11-02_09-00-00' }, conversation_history: [] },
  }),
);
mkdirSync(join(OUT, 'relay-agent'), { recursive: true });
writeFileSync(
  join(OUT, 'relay-agent', 'MEMORY.md'),
  memoryHeader('relay', new Date('2026-11-01T08:00:00.000Z')) +
    '### user — 2026-11-01T08:00:05.000Z\n\nMy team owns the payments service; page me only for P1 incidents.\n\n---\n\n' +
    '### assistant — 2026-11-01T08:00:09.000Z\n\nNoted: payments service, P1 pages only.\n\n---\n\n',
);
console.log(`examples written to ${OUT}`);
