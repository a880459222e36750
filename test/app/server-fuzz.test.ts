import fc from 'fast-check';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect as tcp } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime } from '../../app/service/runtime.js';
import { startServer, type RunningServer } from '../../app/server/server.js';
import { ROOT, SWARMS } from '../helpers.js';

/** Raw bytes to the server and whatever it answers (or '' when it just closes). */
function raw(port: number, bytes: string | Buffer, waitMs = 400): Promise<string> {
  return new Promise((resolve) => {
    const socket = tcp({ host: '127.0.0.1', port });
    let answer = '';
    const done = () => {
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', done);
    socket.on('close', done);
    socket.on('connect', () => socket.write(bytes));
    setTimeout(done, waitMs);
  });
}

const request = (port: number, path: string, extra = '') => raw(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n${extra}\r\n`);
const status = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const header = (answer: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(answer)?.[1];

let server: RunningServer;
const reported: string[] = [];
beforeAll(async () => {
  // tempDir() is emptied after each test; this server outlives them.
  const staticDir = mkdtempSync(join(tmpdir(), 'ci-fuzz-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(join(staticDir, 'assets', 'a.js'), 'console.log(1)');
  const dir = mkdtempSync(join(tmpdir(), 'ci-fuzz-root-'));
  writeFileSync(join(dir, 'demo.json'), JSON.stringify([{ role: 'user', content: 'hi' }]));
  // A message whose metadata nests 10,000 levels: opening it once killed the server (JSON.stringify overflow).
  writeFileSync(join(dir, 'deep.json'), `[{"role":"user","content":"x","metadata":${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}}]`);
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService() });
  server = await startServer({ handlers: rt.handlers, staticDir, onError: (where, e) => reported.push(`${where}: ${(e as Error).message}`) });
});
afterAll(async () => {
  await server.close();
});

async function stillServing(): Promise<void> {
  const page = await request(server.port, `/?token=${server.token}`);
  expect(status(page)).toBe(200);
}

describe('browser mode: no request of any shape stops the server', () => {
  it.each(['/%ff', '/%', '/assets/%zz', '//', '///x', '/%00', '/..%2f..%2fetc%2fpasswd', '/assets/%c0%ae%c0%ae/x', '/?%', '/?token=%zz', '*', 'http://evil/x', '/\u00ff'])('GET %s answers an error and the server keeps serving', async (path) => {
    const answer = await request(server.port, path);
    expect([400, 403, 404]).toContain(status(answer));
    expect(header(answer, 'content-security-policy')).toContain("default-src 'none'");
    await stillServing();
  });

  it('the page needs the token whatever its spelling: /%69ndex.html, /./index.html, //index.html, /assets/../index.html', async () => {
    for (const path of ['/index.html', '/%69ndex.html', '/./index.html', '//index.html', '/assets/../index.html', '/INDEX.html', '/index.html?token=']) {
      const answer = await request(server.port, path);
      expect(status(answer), path).not.toBe(200);
    }
    expect(status(await request(server.port, `/%69ndex.html?token=${server.token}`))).toBe(200);
  });

  it('421 and 405 answers carry the security headers too', async () => {
    const misdirected = await raw(server.port, `GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`);
    expect(status(misdirected)).toBe(421);
    expect(header(misdirected, 'x-frame-options')).toBe('DENY');
    const post = await raw(server.port, `POST / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    expect(status(post)).toBe(405);
    expect(header(post, 'content-security-policy')).toContain("default-src 'none'");
  });

  it('survives fuzzed request lines, paths and headers (fast-check, fixed seed)', async () => {
    const pathChars = fc.constantFrom('/', '%', 'f', 'F', '0', '9', 'z', '.', '?', '#', '&', '=', '\\', ' ', '\u00ff', '\u0000', '\t', 'é', '😀', 'a', 'assets', 'index.html', 'token');
    const path = fc.array(pathChars, { maxLength: 30 }).map((p) => p.join(''));
    const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE', 'PATCH', 'BREW', 'get', '', 'G\u00e9T');
    const headerLine = fc.oneof(
      fc.constantFrom('Host: evil', 'Host:', 'Origin: null', 'Connection: upgrade', 'Upgrade: websocket', 'Transfer-Encoding: chunked', 'Content-Length: -1', 'Content-Length: 99999999999', 'X: \u00ff\u00fe', 'Sec-WebSocket-Key: x'),
      fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 40 })).map(([k, v]) => `${k}: ${v}`),
    );
    await fc.assert(
      fc.asyncProperty(method, path, fc.array(headerLine, { maxLength: 5 }), fc.boolean(), fc.string({ unit: 'binary', maxLength: 50 }), async (m, p, headers, withHost, body) => {
        const host = withHost ? `Host: 127.0.0.1:${server.port}\r\n` : '';
        await raw(server.port, Buffer.from(`${m} ${p} HTTP/1.1\r\n${host}${headers.join('\r\n')}\r\n\r\n${body}`, 'utf8'), 150);
      }),
      { numRuns: 250, seed: 42 },
    );
    await stillServing();
    // Raw garbage that is not HTTP at all.
    for (const junk of ['\x00\x01\x02', 'GET', '\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', 'x'.repeat(100_000)]) await raw(server.port, junk, 150);
    await stillServing();
  }, 120_000);
});

describe('browser mode: no frame of any shape stops the server', () => {
  let ws: WebSocket;
  const answers: unknown[] = [];
  beforeAll(async () => {
    ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, { origin: `http://127.0.0.1:${server.port}` });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.on('message', (d) => answers.push(JSON.parse(String(d))));
  });
  afterEach(() => {
    answers.length = 0;
  });

  const ask = (frame: unknown) =>
    new Promise<{ id: unknown; result: { ok: boolean; error?: { code: string } } }>((resolve) => {
      ws.once('message', (d) => resolve(JSON.parse(String(d))));
      ws.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
    });

  it.each([
    ['null', 'null'],
    ['a list', '[]'],
    ['a number', '42'],
    ['a string', '"text"'],
    ['true', 'true'],
    ['an empty object', '{}'],
    ['wrong types', '{"id":{},"channel":[],"input":null}'],
    ['null input', '{"channel":"conversation:open","input":null}'],
    ['100,000 nested lists', `${'['.repeat(100000)}${']'.repeat(100000)}`],
  ])('frame: %s gets an error answer', async (_name, frame) => {
    const answer = await ask(frame);
    expect(answer.result.ok).toBe(false);
  });

  it('opening a message nested 10,000 levels deep is a clear error, not a dead server', async () => {
    const open = await ask({ id: 1, channel: 'conversation:open', input: { path: 'deep.json' } });
    expect(open.result).toMatchObject({ ok: false, error: { code: 'PARSE_ERROR' } });
    expect(JSON.stringify(open.result)).toMatch(/nested more than 256 levels/);
    const message = await ask({ id: 2, channel: 'conversation:message', input: { path: 'deep.json', index: 0 } });
    expect(message.result.ok).toBe(false);
    expect((await ask({ id: 3, channel: 'conversation:open', input: { path: 'demo.json' } })).result.ok).toBe(true);
  });

  it('survives fuzzed frames: any JSON, any bytes, any channel and input (fast-check, fixed seed)', async () => {
    const frames = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
      fc.record({ id: fc.anything(), channel: fc.oneof(fc.constantFrom('conversation:open', 'conversation:message', 'window:preview', 'edit:apply', 'tokens:count', 'dir:list', '__proto__', 'constructor'), fc.string()), input: fc.anything() }).map((v) => {
        try {
          return JSON.stringify(v);
        } catch {
          return '{}';
        }
      }),
    );
    await fc.assert(
      fc.asyncProperty(frames, async (frame) => {
        const answer = await ask(frame);
        expect(typeof answer.result.ok).toBe('boolean');
      }),
      { numRuns: 400, seed: 7 },
    );
    expect((await ask({ id: 9, channel: 'app:info', input: {} })).result.ok).toBe(true);
  }, 120_000);
});

describe('the real bin (serve) survives what once killed it', () => {
  let child: ChildProcess;
  let port = 0;
  let token = '';
  beforeAll(async () => {
    child = spawn(process.execPath, [join(ROOT, 'bin', 'conversation-inspector.mjs'), 'serve', SWARMS], { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out);
        if (m) resolve(m[0]);
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const u = new URL(url);
    port = Number(u.port);
    token = u.searchParams.get('token')!;
  });
  afterAll(() => {
    child.kill();
  });

  it('GET /%ff, /%, /assets/%zz, // and a null frame: still running and serving', async () => {
    for (const path of ['/%ff', '/%', '/assets/%zz', '//']) await request(port, path);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { origin: `http://127.0.0.1:${port}` });
    await new Promise((resolve) => ws.once('open', resolve));
    const answer = new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(String(d)))));
    ws.send('null');
    expect(await answer).toMatchObject({ result: { ok: false } });
    ws.close();
    expect(child.exitCode).toBeNull();
    expect(status(await request(port, `/?token=${token}`))).toBe(200);
  });
});
