import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { MAX_PAYLOAD_BYTES, startServer, type RunningServer } from '../../app/server/server.js';
import { SWARMS, tempDir } from '../helpers.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function running(maxPayloadBytes?: number): Promise<{ server: RunningServer; rt: Runtime }> {
  const staticDir = tempDir();
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(join(staticDir, 'assets', 'a.js'), 'console.log(1)');
  const rt = createRuntime({ dirs: [SWARMS], mode: 'browser', tokens: new InlineTokenService() });
  const server = await startServer({ handlers: rt.handlers, staticDir, maxPayloadBytes });
  cleanup.push(() => rt.close(), () => server.close());
  return { server, rt };
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(server: RunningServer, opts: { token?: string; origin?: string; host?: string } = {}): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${opts.token ?? server.token}`, {
    origin: opts.origin ?? `http://127.0.0.1:${server.port}`,
    headers: opts.host ? { host: opts.host } : {},
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

function ask(ws: WebSocket, channel: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }> {
  return new Promise((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(String(data)).result));
    ws.send(JSON.stringify({ id: 1, channel, input }));
  });
}

describe('browser-mode server', () => {
  it('binds 127.0.0.1 and prints a URL with a random token', async () => {
    const { server } = await running();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    const other = await running();
    expect(other.server.token).not.toBe(server.token);
  });

  it('serves the page only with the token, with a CSP, and never files outside the app', async () => {
    const { server } = await running();
    expect((await get(server.port, '/')).status).toBe(403);
    expect((await get(server.port, '/?token=wrong')).status).toBe(403);
    const page = await get(server.port, `/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'none'");
    expect((await get(server.port, '/assets/a.js')).status).toBe(200);
    expect((await get(server.port, '/../../etc/passwd')).status).toBe(404);
    expect((await get(server.port, '/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const { server } = await running();
    expect((await get(server.port, `/?token=${server.token}`, { host: 'evil.example:80' })).status).toBe(421);
  });

  it('answers requests over the socket with the same dispatch', async () => {
    const { server } = await running();
    const ws = await connect(server);
    const r = await ask(ws, 'conversation:open', { path: 'conversation_demo.json' });
    expect(r.ok).toBe(true);
    expect(await ask(ws, 'conversation:open', { path: 7 })).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    ws.close();
  });

  it('refuses a wrong token, a foreign Origin and a foreign Host on the socket', async () => {
    const { server } = await running();
    await expect(connect(server, { token: 'wrong' })).rejects.toThrow(/403/);
    await expect(connect(server, { origin: 'https://evil.example' })).rejects.toThrow(/403/);
    await expect(connect(server, { origin: 'null' })).rejects.toThrow(/403/);
    await expect(connect(server, { host: 'evil.example' })).rejects.toThrow(/403/);
  });

  it('closes the socket on an oversized payload', async () => {
    const { server } = await running(1024 * 1024);
    const ws = await connect(server);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('x'.repeat(1024 * 1024 + 1));
    expect(await closed).toBe(1009);
  });

  it('takes an edit of a message of many megabytes (a frame far over a megabyte, within the limit)', async () => {
    const { server } = await running();
    const ws = await connect(server);
    const text = 'a line of a file the agent read\n'.repeat(400_000);
    expect(JSON.stringify(text).length).toBeGreaterThan(12_000_000);
    expect(JSON.stringify(text).length).toBeLessThan(MAX_PAYLOAD_BYTES);
    const opened = (await ask(ws, 'conversation:open', { path: 'conversation_demo.json' })) as { value?: { editVersion: number } };
    const answer = await ask(ws, 'edit:apply', { path: 'conversation_demo.json', version: opened.value!.editVersion, command: { type: 'set-text', index: 1, text } });
    expect(answer).toMatchObject({ ok: true, value: { dirty: true } });
    ws.close();
  });

  it('pushes events to connected clients', async () => {
    const { server } = await running();
    const ws = await connect(server);
    const got = new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(String(d)))));
    server.broadcast('conversation:changed', { path: 'x.json' });
    expect(await got).toEqual({ event: 'conversation:changed', payload: { path: 'x.json' } });
    ws.close();
  });
});
