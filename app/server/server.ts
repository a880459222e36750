import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENT_NAMES, type EventName, type Result } from '../shared/contract.js';
import { CONTENT_SECURITY_POLICY } from '../shared/csp.js';
import { dispatch, type Handlers } from '../service/dispatch.js';
import { encodeAnswer, parseFrame } from './socket-messages.js';
import { resolveStatic, splitTarget } from '../shared/static-path.js';

const PEER_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * The largest frame a client may send: an edit of a message of many megabytes (a Claude Code line holding a
 * whole file, as JSON) must fit; the socket is the page's own, behind the per-run token.
 */
export const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export interface ServeOptions {
  /** Where requests go: the document service (a Backend's request), or handlers dispatched on this thread. */
  request?: (channel: unknown, input: unknown) => Promise<Result<unknown>>;
  handlers?: Handlers;
  /** The built renderer (index.html and assets). */
  staticDir: string;
  port?: number;
  token?: string;
  /** Where a failure caught at a boundary is reported (default: stderr). The server keeps running. */
  onError?: (where: string, error: unknown) => void;
  /** The largest frame accepted (default MAX_PAYLOAD_BYTES). */
  maxPayloadBytes?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  broadcast<E extends EventName>(event: E, payload: unknown): void;
  close(): Promise<void>;
}

export const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

function sameSecret(given: string | null | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Every answer, errors included, carries the security headers. */
function answer(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}, head = false): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(bytes.length), ...SECURITY_HEADERS, ...headers });
  res.end(head ? undefined : bytes);
}

/**
 * Browser mode: the built renderer and the same `dispatch` over a WebSocket, on 127.0.0.1 only. A random
 * per-run token guards the page and the socket; Host and Origin checks stop DNS-rebinding and other sites.
 * Every boundary (request, upgrade, frame, send) catches what goes wrong and answers an error: no request of
 * any shape stops the server.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const handlers = options.handlers;
  const route = options.request ?? (handlers ? (channel: unknown, input: unknown) => dispatch(handlers, channel, input) : undefined);
  if (!route) throw new Error('startServer needs request or handlers');
  // A browser tab closed mid-connection resets its socket: normal, and not worth a line on stderr.
  const report =
    options.onError ??
    ((where: string, e: unknown) => {
      if (!PEER_GONE.has((e as NodeJS.ErrnoException | undefined)?.code ?? '')) process.stderr.write(`serve: ${where}: ${e instanceof Error ? e.message : String(e)}\n`);
    });
  let port = 0;
  const hostOk = (req: IncomingMessage) => {
    const host = req.headers.host;
    return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
  };

  const serveStatic = async (req: IncomingMessage, res: ServerResponse) => {
    const head = req.method === 'HEAD';
    const target = resolveStatic(req.url, (given) => sameSecret(given, token));
    if (target.kind === 'error') return answer(res, target.status, target.message, {}, head);
    const file = join(options.staticDir, target.relative);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return answer(res, 404, 'Not found', {}, head);
    const body = await readFile(file);
    answer(res, 200, body, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }, head);
  };

  const http: Server = createServer((req, res) => {
    res.on('error', (e) => report('response', e));
    try {
      if (!hostOk(req)) return answer(res, 421, 'Misdirected request');
      if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
      serveStatic(req, res).catch((e) => {
        report('request', e);
        answer(res, 500, 'Internal error');
      });
    } catch (e) {
      report('request', e);
      answer(res, 500, 'Internal error');
    }
  });
  // A malformed request line or header: answer 400 and drop that socket, nothing else.
  const rawHeaders = Object.entries(SECURITY_HEADERS).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  http.on('clientError', (_e, socket: Duplex) => {
    try {
      if (socket.writable) socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n${rawHeaders}\r\n`);
    } finally {
      socket.destroy();
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes ?? MAX_PAYLOAD_BYTES });
  wss.on('error', (e) => report('websocket server', e));
  const clients = new Set<WebSocket>();

  const send = (ws: WebSocket, text: string) => {
    if (ws.readyState !== ws.OPEN) return;
    try {
      ws.send(text);
    } catch (e) {
      report('send', e);
    }
  };

  const onFrame = async (ws: WebSocket, data: unknown) => {
    const parsed = parseFrame(data);
    if ('answer' in parsed) return send(ws, encodeAnswer(parsed.answer.id, parsed.answer.result));
    const { id, channel, input } = parsed.frame;
    const result = await route(channel, input);
    send(ws, encodeAnswer(id, result));
  };

  const refuseUpgrade = (socket: Duplex) => {
    try {
      if (socket.writable) socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    } finally {
      socket.destroy();
    }
  };

  http.on('upgrade', (req, socket: Duplex, head) => {
    socket.on('error', (e) => report('upgrade socket', e));
    try {
      const { path, query } = splitTarget(req.url);
      const origin = req.headers.origin;
      const originOk = origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
      if (!hostOk(req) || !originOk || path !== '/ws' || !sameSecret(query.get('token'), token)) return refuseUpgrade(socket);
      wss.handleUpgrade(req, socket, head, (ws) => {
        clients.add(ws);
        ws.on('close', () => clients.delete(ws));
        // An oversized or broken frame closes this socket (1009 and the like); it must never crash the server.
        ws.on('error', () => ws.terminate());
        ws.on('message', (data) => {
          onFrame(ws, data).catch((e) => {
            report('frame', e);
            send(ws, encodeAnswer(null, { ok: false, error: { code: 'INTERNAL', message: 'the request failed' } }));
          });
        });
      });
    } catch (e) {
      report('upgrade', e);
      refuseUpgrade(socket);
    }
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  http.on('error', (e) => report('http server', e));
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    broadcast(event, payload) {
      if (!EVENT_NAMES.includes(event)) return;
      const text = safeEvent(event, payload);
      if (text === undefined) return report('broadcast', new Error(`event ${event} could not be encoded`));
      for (const c of clients) send(c, text);
    },
    close: async () => {
      for (const c of clients) c.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function safeEvent(event: string, payload: unknown): string | undefined {
  try {
    return JSON.stringify({ event, payload });
  } catch {
    return undefined;
  }
}
