import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentText } from '../../src/core/message.js';
import { edgeString } from '../support/edge-arbitraries.js';
import {
  applyPlan,
  buildSkeleton,
  ExtractiveSummarizer,
  getTokenizer,
  OpenAICompatibleSummarizer,
  strategies,
  summariesForPlan,
  SummarizerError,
  TextSummarizer,
  type Message,
} from '../../src/core/index.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const requests: Array<{ url?: string; headers: IncomingMessage['headers']; body: string }> = [];
let handler: Handler = () => {};
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests.push({ url: req.url, headers: req.headers, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof value === 'string' ? value : JSON.stringify(value));
};
const history: Message[] = [
  { role: 'System', content: 'You are helpful.' },
  { role: 'user', content: 'My name is Alice and I love Python.' },
  { role: 'assistant', content: 'Nice to meet you, Alice!' },
  { role: 'user', content: 'What is my favourite language?' },
];
const summarizer = (timeoutMs = 2000) => new OpenAICompatibleSummarizer({ baseUrl, apiKey: 'sk-test', model: 'llama3.2', timeoutMs });

async function failure(promise: Promise<unknown>): Promise<SummarizerError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(SummarizerError);
    return e as SummarizerError;
  }
  throw new Error('expected a failure');
}

describe('OpenAICompatibleSummarizer', () => {
  it('sends a chat-completions request and returns the reply', async () => {
    handler = (_req, _body, res) => json(res, 200, { choices: [{ message: { role: 'assistant', content: '  Alice likes Python.  ' } }] });
    requests.length = 0;
    expect(await summarizer().summarize(history.slice(1))).toBe('Alice likes Python.');
    const [req] = requests;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    const body = JSON.parse(req.body);
    expect(body.model).toBe('llama3.2');
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[1].content).toBe('user: My name is Alice and I love Python.\n\nassistant: Nice to meet you, Alice!\n\nuser: What is my favourite language?');
  });

  it('401: a clear authentication error', async () => {
    handler = (_r, _b, res) => json(res, 401, { error: { message: 'Incorrect API key provided' } });
    const e = await failure(summarizer().summarize(history));
    expect(e.code).toBe('auth');
    expect(e.message).toMatch(/refused the API key \(HTTP 401\)/);
  });

  it('500: the status and a snippet of the body', async () => {
    handler = (_r, _b, res) => json(res, 500, 'model crashed: out of memory');
    const e = await failure(summarizer().summarize(history));
    expect(e.code).toBe('http');
    expect(e.message).toMatch(/HTTP 500: model crashed: out of memory/);
  });

  it('a server that never answers times out', async () => {
    handler = () => {};
    const e = await failure(summarizer(300).summarize(history));
    expect(e.code).toBe('timeout');
    expect(e.message).toMatch(/timed out/);
  });

  it.each([
    ['not JSON', '<html>gateway</html>', /did not answer with JSON/],
    ['no choices', { id: 'x' }, /without choices\[0\]\.message\.content/],
    ['content not a string', { choices: [{ message: { content: 42 } }] }, /without choices/],
    ['empty content', { choices: [{ message: { content: '   ' } }] }, /empty summary/],
  ])('malformed reply (%s) is a clear error', async (_name, reply, pattern) => {
    handler = (_r, _b, res) => json(res, 200, reply);
    expect((await failure(summarizer().summarize(history))).message).toMatch(pattern);
  });

  it('an unreachable server is a network error', async () => {
    const s = new OpenAICompatibleSummarizer({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2000 });
    expect((await failure(s.summarize(history))).code).toBe('network');
  });

  it('a failing summarizer leaves nothing applied', async () => {
    handler = (_r, _b, res) => json(res, 500, 'boom');
    const before = structuredClone(history);
    const plan = strategies.plan('summarizing', buildSkeleton(history, getTokenizer('gpt-5.4')), { force: true, keepRecentMessages: 1 });
    let result: Message[] = history;
    await expect(
      summariesForPlan(history, plan, summarizer()).then((summaries) => {
        result = applyPlan(history, plan, { summaries });
      }),
    ).rejects.toThrow(SummarizerError);
    expect(result).toBe(history);
    expect(history).toEqual(before);
  });
});

describe('ExtractiveSummarizer', () => {
  const t = getTokenizer('gpt-5.4');
  const sentence = fc.constantFrom(
    'Please add a retry to the upload in client.ts.',
    'Why does the build fail on Windows?',
    "I'll switch the parser to streaming because the file is 2 GB.",
    'The root cause is a missing await in saveAll.',
    'Tests pass now.',
    'Here is the output.',
    'ok',
    'We should keep the old format for one release.',
    'Can you also update the README?',
  );
  const message = fc.oneof(
    fc.record({ role: fc.constant('user'), content: fc.oneof(sentence, edgeString, fc.array(sentence, { maxLength: 4 }).map((a) => a.join(' '))) }),
    fc.record({ role: fc.constant('assistant'), content: fc.oneof(sentence, edgeString, fc.array(sentence, { maxLength: 6 }).map((a) => a.join('\n'))) }),
    fc.record({ role: fc.constant('assistant'), content: fc.constant(''), tool_calls: fc.array(fc.record({ id: fc.uuid(), function: fc.record({ name: fc.constantFrom('read_file', 'run_tests', 'grep', 'write_file'), arguments: fc.constant('{}') }) }), { minLength: 1, maxLength: 2 }) }),
    fc.record({ role: fc.constant('tool'), content: fc.oneof(fc.constant('Error: file not found'), fc.constant('3 matches'), edgeString) }),
    fc.record({ role: fc.constant('system'), content: sentence }),
  );
  const history = fc.array(message, { minLength: 1, maxLength: 400 }) as fc.Arbitrary<Message[]>;

  /** The "Messages a–b" (or "Message a") of each segment line, as [from, to) of the range. */
  const segmentsOf = (summary: string) =>
    summary
      .split('\n')
      .filter((l) => l.startsWith('- Message'))
      .map((l) => {
        const m = /^- Messages? (\d+)(?:–(\d+))?:/.exec(l)!;
        return [Number(m[1]) - 1, Number(m[2] ?? m[1])] as const;
      });

  it('tells every part of the range: its segments tile it, in order, within the budget, the same every time (property)', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 60, max: 1500 }), (messages, maxTokens) => {
        const s = new ExtractiveSummarizer({ measure: t, maxTokens });
        const summary = s.summarizeSync(messages);
        expect(s.summarizeSync(messages)).toBe(summary);
        expect(t.count(summary)).toBeLessThanOrEqual(maxTokens);
        const segments = segmentsOf(summary);
        expect(segments.length).toBeGreaterThan(0);
        expect(segments[0][0]).toBe(0);
        expect(segments.at(-1)![1]).toBe(messages.length);
        for (let i = 1; i < segments.length; i++) expect(segments[i][0]).toBe(segments[i - 1][1]);
      }),
      { numRuns: 150 },
    );
  });

  it('quotes only what the messages of a segment say, and the user of every segment that has one (property)', () => {
    const flat = (x: unknown) => contentText(x).replace(/\s+/g, ' ').trim();
    fc.assert(
      fc.property(history, (messages) => {
        const summary = new ExtractiveSummarizer({ measure: t, maxTokens: 1200 }).summarizeSync(messages);
        const lines = summary.split('\n').filter((l) => l.startsWith('- Message'));
        segmentsOf(summary).forEach(([from, to], k) => {
          const said = messages.slice(from, to).map((m) => flat(m.content));
          const quotes = [...lines[k].matchAll(/(?:user|assistant|system|tool result): "(.*?)"(?= →|$)/g)].map((q) => q[1].replace(/…$/, ''));
          for (const q of quotes) expect(said.some((text) => text.includes(q))).toBe(true);
          const asked = messages.slice(from, to).some((m) => m.role === 'user' && /\p{L}{3}/u.test(flat(m.content)));
          if (asked) expect(lines[k]).toContain('user: "');
        });
      }),
      { numRuns: 150 },
    );
  });

  it('names the tools a range used, with how many of their results failed', () => {
    const call = (id: string, name: string): Message => ({ role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }] });
    const result = (id: string, content: string): Message => ({ role: 'tool', tool_call_id: id, content });
    const messages: Message[] = [
      { role: 'user', content: 'Fix the failing upload test in client.ts.' },
      call('a', 'read_file'), result('a', 'export function upload() {}'),
      call('b', 'run_tests'), result('b', 'Error: 1 test failed'),
      { role: 'assistant', content: "The root cause is a missing await. I'll add it to upload()." },
      call('c', 'write_file'), result('c', 'written'),
      call('d', 'run_tests'), result('d', 'all 12 tests passed'),
    ];
    const summary = new ExtractiveSummarizer({ measure: t }).summarizeSync(messages);
    expect(summary.split('\n')[0]).toBe('Summary of 10 earlier messages:');
    expect(summary).toContain('Tools: run_tests ×2 (1 failed), read_file ×1 (ok), write_file ×1 (ok).');
    expect(summary).toContain('user: "Fix the failing upload test in client.ts."');
    expect(summary).toContain("The root cause is a missing await.");
  });

  it('quotes the answer to the request it quotes, and names tools that only their results name (swarms tool messages)', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Can you look into the login redirect loop?' },
      { role: 'tool', content: "{'tool': 'search_logs', 'query': 'login redirect', 'hits': 12}" },
      { role: 'assistant', content: 'The root cause is a cookie set for the wrong domain after the deploy.' },
      { role: 'user', content: 'ok' },
      { role: 'assistant', content: 'I will also add an alert because this can happen again in other regions.' },
      { role: 'tool', content: '{"tool": "search_logs", "query": "alerts", "hits": 0}' },
    ];
    const summary = new ExtractiveSummarizer({ measure: t, maxTokens: 60 }).summarizeSync(messages);
    expect(summary).toContain('Tools: search_logs ×2 (ok).');
    // Each quote says which message it is from; "→" marks the answer to that request (its turn).
    expect(summary).toContain('user: "Can you look into the login redirect loop?" (1) → assistant: "The root cause is a cookie set for the wrong domain after the deploy." (3)');
  });

  it('a long run is told from its beginning to its end, not its first messages and a count', () => {
    const messages: Message[] = Array.from({ length: 2960 }, (_, i) =>
      i % 2 ? { role: 'assistant', content: `Step ${i}: I will update module_${i}.ts because test ${i} fails.` } : { role: 'user', content: `Now handle case ${i} in the parser, please.` },
    );
    const summary = new ExtractiveSummarizer({ measure: t, maxTokens: 400 }).summarizeSync(messages);
    expect(t.count(summary)).toBeLessThanOrEqual(400);
    expect(summary).not.toMatch(/more not shown/);
    const segments = segmentsOf(summary);
    expect(segments.length).toBeGreaterThanOrEqual(4);
    expect(segments.at(-1)![1]).toBe(2960);
    // The last segment quotes a message from the end of the run.
    expect(Number(/case (\d+)/.exec(summary.split('\n').at(-1)!)![1])).toBeGreaterThan(2000);
  });

  it('summarises structured content as its text', async () => {
    const s = new ExtractiveSummarizer({ measure: t });
    expect(await s.summarize([{ role: 'tool', content: { ok: true } }])).toBe('Summary of 1 earlier message:\n- Message 1: tool result: "{"ok":true}"');
  });
});

describe('TextSummarizer and summariesForPlan', () => {
  it('uses the text the user wrote for every inserted summary', async () => {
    const plan = strategies.plan('summarizing', buildSkeleton(history, getTokenizer('gpt-5.4')), { force: true, keepRecentMessages: 1 });
    const summaries = await summariesForPlan(history, plan, new TextSummarizer('User is Alice.'));
    expect(applyPlan(history, plan, { summaries }).map((m) => m.content)).toEqual(['You are helpful.', 'User is Alice.', 'What is my favourite language?']);
  });
});
