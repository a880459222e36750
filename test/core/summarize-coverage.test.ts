import { describe, expect, it } from 'vitest';
import { ExtractiveSummarizer, getTokenizer, SummarizerError, summarizerFrom, type Message } from '../../src/core/index.js';
import { contentWords } from '../../src/core/summarize/sumbasic.js';
import { sentencesOf } from '../../src/core/summarize/salience.js';

const t = getTokenizer('gpt-4o');

/** A small deterministic generator (mulberry32), so the conversation is the same on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)], int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)) };
}

/** 30 topics of a long coding session, each with the identifier or file it is about and a few words of its own. */
const TOPICS: ReadonlyArray<{ key: string; nouns: readonly string[] }> = [
  { key: 'payment_gateway.ts', nouns: ['card token', 'idempotency key', 'refund webhook'] },
  { key: 'retryBackoff', nouns: ['jitter', 'upper bound', 'reconnect storm'] },
  { key: 'auth/session.go', nouns: ['session cookie', 'expiry check', 'clock skew'] },
  { key: 'CSV_IMPORT_LIMIT', nouns: ['row limit', 'upload form', 'spreadsheet'] },
  { key: 'docker-compose.yml', nouns: ['postgres volume', 'healthcheck', 'port mapping'] },
  { key: 'useInfiniteScroll', nouns: ['scroll position', 'sentinel element', 'page cursor'] },
  { key: 'migrations/0042_orders.sql', nouns: ['orders table', 'foreign key', 'backfill'] },
  { key: 'renderInvoicePdf', nouns: ['invoice layout', 'font embedding', 'page footer'] },
  { key: 'config/feature_flags.json', nouns: ['rollout percentage', 'flag default', 'kill switch'] },
  { key: 'ImageCache', nouns: ['eviction policy', 'thumbnail', 'memory leak'] },
  { key: 'search_index.py', nouns: ['tokenizer', 'stemming', 'ranking score'] },
  { key: 'WebSocketHub', nouns: ['heartbeat', 'broadcast queue', 'stale client'] },
  { key: '.github/workflows/release.yml', nouns: ['release tag', 'artifact upload', 'signing step'] },
  { key: 'parseTimezone', nouns: ['daylight saving', 'offset string', 'locale'] },
  { key: 'rate_limiter.rs', nouns: ['token bucket', 'burst size', 'refill rate'] },
  { key: 'EmailTemplateRenderer', nouns: ['unsubscribe link', 'plain text part', 'template variable'] },
  { key: 'k8s/ingress.yaml', nouns: ['TLS secret', 'path rewrite', 'timeout annotation'] },
  { key: 'useDarkMode', nouns: ['color scheme', 'contrast ratio', 'theme toggle'] },
  { key: 'inventory_sync.py', nouns: ['warehouse feed', 'stock count', 'nightly job'] },
  { key: 'GraphQLResolver', nouns: ['N+1 query', 'dataloader', 'field permission'] },
  { key: 'Makefile', nouns: ['build target', 'phony rule', 'parallel jobs'] },
  { key: 'geo_distance.ts', nouns: ['haversine formula', 'radius', 'coordinate order'] },
  { key: 'AuditLogWriter', nouns: ['log rotation', 'tamper check', 'retention period'] },
  { key: 'pdf_export.go', nouns: ['page size', 'margin', 'table overflow'] },
  { key: 'NotificationBadge', nouns: ['unread count', 'badge color', 'polling interval'] },
  { key: 'redis_lock.py', nouns: ['lock timeout', 'lease renewal', 'deadlock'] },
  { key: 'i18n/messages.de.json', nouns: ['plural forms', 'missing key', 'German translation'] },
  { key: 'checkoutReducer', nouns: ['cart state', 'promo code', 'shipping step'] },
  { key: 'tsconfig.build.json', nouns: ['path alias', 'declaration output', 'strict mode'] },
  { key: 'SitemapGenerator', nouns: ['lastmod date', 'URL limit', 'robots file'] },
];

const ASK = [
  'Can you look at {k}? The {n} seems broken since yesterday.',
  'Please add a unit test for {k} that covers the {n} case.',
  'Why does {k} take {d} seconds on the staging server?',
  'The {n} in {k} fails for about {d} percent of requests, can you find out why?',
  'Could you refactor the {n} handling in {k} so it is easier to read?',
  'What happens to the {n} when {k} gets an empty input?',
  'Let us also document the {n} behaviour of {k} in the README.',
];
const TELL = [
  "I'll start by reading {k} to see how the {n} is handled.",
  'The root cause is that {k} never resets the {n} after a failure.',
  'I updated {k} so the {n} is retried at most {d} times.',
  'All {d} tests pass now, including the new one for the {n} in {k}.',
  'The {n} check in {k} was comparing against the wrong field, which I fixed.',
  'I decided to keep the old {n} format for one release because clients still send it.',
  'There are {d} call sites of {k}; only two of them touch the {n}.',
];
/** Chatter that every stretch of the session repeats, word for word. */
const CHATTER_USER = ['Thanks, that looks good.', 'ok', 'Go ahead.', 'Sounds good, please continue.', 'Can you run the tests again?', 'What is next?'];
const CHATTER_ASSISTANT = ['Let me check that.', 'Running the tests again now.', 'Here is what I found:', 'Done.', "I'll take a look at the logs first.", 'Good question, let me verify before answering.'];
const TOOLS = ['read_file', 'grep', 'run_tests', 'write_file'];

/** A 3,000-message session: 30 topics in turn, each over a contiguous stretch of 100 messages. */
function session(): Message[] {
  const r = random(20260402);
  const fill = (template: string, topic: (typeof TOPICS)[number]) => template.replace('{k}', topic.key).replace('{n}', r.pick(topic.nouns)).replace('{d}', String(r.int(2, 90)));
  const out: Message[] = [];
  let call = 0;
  for (const topic of TOPICS) {
    const end = out.length + 100;
    while (out.length < end) {
      const left = end - out.length;
      out.push({ role: 'user', content: r.next() < 0.6 ? fill(r.pick(ASK), topic) : r.pick(CHATTER_USER) });
      if (left >= 4 && r.next() < 0.7) {
        const id = `call_${++call}`;
        const name = r.pick(TOOLS);
        out.push({ role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify({ path: topic.key }) } }] });
        const failed = r.next() < 0.15;
        out.push({ role: 'tool', tool_call_id: id, content: failed ? `Error: ${name} failed on ${topic.key}: exit code 1` : `${r.int(1, 40)} lines of ${topic.key} read; no errors.` });
      }
      if (out.length >= end) break;
      const sentences = Array.from({ length: r.int(1, 3) }, () => (r.next() < 0.55 ? fill(r.pick(TELL), topic) : r.pick(CHATTER_ASSISTANT)));
      out.push({ role: 'assistant', content: sentences.join(' ') });
    }
    out.length = end;
  }
  return out;
}

/** "Messages a–b" (or "Message a") of each line, as [from, to) of the range. */
const spansOf = (summary: string) =>
  summary
    .split('\n')
    .filter((l) => l.startsWith('- Message'))
    .map((l) => {
      const m = /^- Messages? (\d+)(?:–(\d+))?:/.exec(l)!;
      return [Number(m[1]) - 1, Number(m[2] ?? m[1])] as const;
    });

/** What the messages cost: their text, and the tool calls they make. */
const tokensOf = (messages: readonly Message[]) => messages.reduce((n, m) => n + t.count(typeof m.content === 'string' ? m.content : JSON.stringify(m.content)) + (m.tool_calls ? t.count(JSON.stringify(m.tool_calls)) : 0), 0);

describe('ExtractiveSummarizer on a long session (coverage and size)', () => {
  const messages = session();
  const rangeTokens = tokensOf(messages);

  it('a 3,000-message session of 30 topics: every stretch told, ≥ 90% of the topics named, within 5% of its tokens, the same every time', () => {
    expect(messages).toHaveLength(3000);
    const summary = new ExtractiveSummarizer({ measure: t }).summarizeSync(messages);
    const tokens = t.count(summary);
    const spans = spansOf(summary);
    const lines = summary.split('\n').filter((l) => l.startsWith('- Message'));
    const named = TOPICS.filter((topic) => summary.includes(topic.key));
    // Named where it was worked on: by a line standing for messages of the topic's stretch.
    const namedInPlace = TOPICS.filter((topic, k) => spans.some(([from, to], j) => from < (k + 1) * 100 && to > k * 100 && lines[j].includes(topic.key)));

    expect(summary.split('\n')[0]).toBe('Summary of 3,000 earlier messages:');
    // The default budget scales with the range (5% of it, between 400 and 4,000 tokens); the summary keeps to it.
    expect(tokens).toBeLessThanOrEqual(Math.min(4000, Math.round(rangeTokens * 0.05)));
    expect(tokens).toBeGreaterThan(Math.round(rangeTokens * 0.02));
    // What the topics were: their files and identifiers, the first and the last stretch among them.
    expect(named.length).toBeGreaterThanOrEqual(27);
    expect(namedInPlace.length).toBeGreaterThanOrEqual(27);
    expect(summary).toContain(TOPICS[0].key);
    expect(summary).toContain(TOPICS.at(-1)!.key);
    // Its lines tile the range in order, none standing for more than 100 messages (a topic's stretch).
    expect(spans[0][0]).toBe(0);
    expect(spans.at(-1)![1]).toBe(3000);
    for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBe(spans[i - 1][1]);
    for (const [from, to] of spans) expect(to - from).toBeLessThanOrEqual(100);
    expect(summary).toMatch(/^Tools: (read_file|grep|run_tests|write_file) ×\d+ \(\d+ failed\)/m);
    expect(new ExtractiveSummarizer({ measure: t }).summarizeSync(messages)).toBe(summary);
  });

  it.each([undefined, 2000, 4000])('chatter repeated word for word across the session is quoted at most once (budget %s)', (maxTokens) => {
    const summary = new ExtractiveSummarizer({ measure: t, maxTokens }).summarizeSync(messages);
    const quotes = [...summary.matchAll(/(?:user|assistant|system|tool result): "(.*?)"(?= \(#?\d+\)| →| ·|$)/gm)].map((q) => q[1]);
    expect(quotes.length).toBeGreaterThan(40);
    for (const chatter of [...CHATTER_USER, ...CHATTER_ASSISTANT]) expect(quotes.filter((q) => q === chatter).length).toBeLessThanOrEqual(1);
    // No sentence is quoted twice.
    expect(new Set(quotes).size).toBe(quotes.length);
  });

  it('an explicit budget is kept, and a small one still tells the session from its beginning to its end', () => {
    for (const maxTokens of [400, 1200]) {
      const summary = new ExtractiveSummarizer({ measure: t, maxTokens }).summarizeSync(messages);
      expect(t.count(summary)).toBeLessThanOrEqual(maxTokens);
      const spans = spansOf(summary);
      expect(spans[0][0]).toBe(0);
      expect(spans.at(-1)![1]).toBe(3000);
    }
  });
});

describe('ExtractiveSummarizer never grows the history where a shorter summary can be given', () => {
  it('a short range under a large budget: fewer lines, shorter than the messages, not a line per message', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Please rename fetchUser to loadUser in api/users.ts and update the three callers.' },
      { role: 'assistant', content: 'Renamed fetchUser to loadUser in api/users.ts. The callers in App.tsx, Profile.tsx and admin.ts now use it.' },
      { role: 'user', content: 'Does the admin page still build?' },
      { role: 'assistant', content: 'Yes: the admin bundle builds, and its 14 tests pass.' },
      { role: 'user', content: 'Good. Now drop the unused export of fetchUserLegacy.' },
      { role: 'assistant', content: 'Removed fetchUserLegacy from api/index.ts; nothing imported it.' },
      { role: 'user', content: 'ok' },
      { role: 'assistant', content: 'Done. Tests pass.' },
      { role: 'user', content: 'Last thing: bump the version to 2.3.0 in package.json.' },
      { role: 'assistant', content: 'Bumped the version to 2.3.0 in package.json and added a CHANGELOG entry.' },
    ];
    const summary = new ExtractiveSummarizer({ measure: t, maxTokens: 400 }).summarizeSync(messages);
    expect(t.count(summary)).toBeLessThan(tokensOf(messages));
    const spans = spansOf(summary);
    expect(spans.length).toBeGreaterThanOrEqual(2);
    expect(spans[0][0]).toBe(0);
    expect(spans.at(-1)![1]).toBe(10);
    expect(summary).toContain('user: "Please rename fetchUser');
    expect(summary).toContain('2.3.0');
  });

  it('too short to summarise: the summary still quotes what was said ("no", "0777"), and refuses when asked to', async () => {
    const tiny: Message[] = [
      { role: 'user', content: 'no' },
      { role: 'assistant', content: 'On' },
      { role: 'user', content: '0777' },
      { role: 'assistant', content: '~' },
    ];
    const summary = new ExtractiveSummarizer({ measure: t, maxTokens: 400 }).summarizeSync(tiny);
    expect(summary).not.toContain('no text');
    expect(summary).toMatch(/"no"|"0777"/);
    const refusing = new ExtractiveSummarizer({ measure: t, maxTokens: 400, refuseLonger: true });
    const e = await refusing.summarize(tiny).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(SummarizerError);
    expect((e as SummarizerError).code).toBe('grows');
    expect((e as SummarizerError).message).toMatch(/no shorter than the 4 messages it replaces/);
    // The CLI and the app make it by summarizerFrom: asked to refuse, it refuses there too.
    await expect(summarizerFrom({ kind: 'offline', refuseLonger: true }, { model: 'gpt-4o' }).summarize(tiny)).rejects.toThrow(/would grow the history/);
  });
});

describe('SumBasic words', () => {
  it('content words: any script, file names and identifiers whole, without function words or courtesies', () => {
    expect(contentWords("I'll fix client.ts and fetch_user — don't worry, thanks: 0777 ~ Café Straße 中文 fix")).toEqual(['fix', 'client.ts', 'fetch_user', 'worry', '0777', 'café', 'straße', '中文']);
    expect(contentWords('no')).toEqual([]);
    expect(contentWords('On')).toEqual([]);
  });
});

describe('sentences of a numbered list', () => {
  it('a list item is one sentence with its number, never the number alone', () => {
    expect(sentencesOf('The failure only happens when the queue is long.\n1. Retries make it worse. 2. A fix is to cap concurrency at 8.')).toEqual(['The failure only happens when the queue is long.', '1. Retries make it worse.', '2. A fix is to cap concurrency at 8.']);
    // A number said alone is still what was said.
    expect(sentencesOf('0777')).toEqual(['0777']);
  });
});

describe('numbers and pairs', () => {
  it('numbers lines and quotes as the reader numbers the messages, and joins with → only an answer of the request\'s own turn', () => {
    const messages = [
      { role: 'user', content: 'Any update on the nightly backup job?' },
      { role: 'user', content: 'Also check the billing export for the duplicate rows issue.' },
      { role: 'assistant', content: 'The billing export duplicates rows because the cursor restarts after a timeout.' },
      { role: 'user', content: 'Thanks.' },
    ];
    const summary = new ExtractiveSummarizer({ measure: t, maxTokens: 60, numbers: [40, 41, 42, 43] }).summarizeSync(messages);
    const line = summary.split('\n').find((l) => l.startsWith('- '))!;
    expect(line).toMatch(/^- #40–#43: /);
    for (const quoted of line.matchAll(/"[^"]*" \((#\d+)\)/g)) expect(['#40', '#41', '#42', '#43']).toContain(quoted[1]);
    // A request quoted with an answer from another turn is not shown as answered by it.
    if (line.includes('"Any update on the nightly backup job?"') && line.includes('billing export duplicates')) expect(line).not.toContain(' → ');
  });
});

