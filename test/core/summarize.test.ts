import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  it('is deterministic, in order, and within its token budget', async () => {
    const s = new ExtractiveSummarizer({ measure: t, maxTokens: 40 });
    const messages: Message[] = Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `Point ${i} is important. Details follow here.` }));
    const a = await s.summarize(messages);
    expect(await s.summarize(messages)).toBe(a);
    expect(t.count(a)).toBeLessThanOrEqual(40);
    expect(a.split('\n')[0]).toBe('Summary of 30 earlier messages:');
    expect(a.split('\n')[1]).toBe('- user: Point 0 is important.');
    expect(a).toMatch(/\(\d+ more not shown\)$/);
  });

  it('summarises structured content as its text', async () => {
    const s = new ExtractiveSummarizer({ measure: t });
    expect(await s.summarize([{ role: 'tool', content: { ok: true } }])).toBe('Summary of 1 earlier message:\n- tool: {"ok":true}');
  });
});

describe('TextSummarizer and summariesForPlan', () => {
  it('uses the text the user wrote for every inserted summary', async () => {
    const plan = strategies.plan('summarizing', buildSkeleton(history, getTokenizer('gpt-5.4')), { force: true, keepRecentMessages: 1 });
    const summaries = await summariesForPlan(history, plan, new TextSummarizer('User is Alice.'));
    expect(applyPlan(history, plan, { summaries }).map((m) => m.content)).toEqual(['You are helpful.', 'User is Alice.', 'What is my favourite language?']);
  });
});
