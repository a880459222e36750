import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENT_NAMES, type EventName } from '../shared/contract.js';
import { CONTENT_SECURITY_POLICY } from '../shared/csp.js';
import { dispatch, type Handlers } from '../main/dispatch.js';

export const MAX_PAYLOAD_BYTES = 1024 * 1024;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export interface ServeOptions {
  handlers: Handlers;
  /** The built renderer (index.html and assets). */
  staticDir: string;
  port?: number;
  token?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  broadcast<E extends EventName>(event: E, payload: unknown): void;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/**
 * Browser mode: the built renderer and the same `dispatch` over a WebSocket, on 127.0.0.1 only. A random
 * per-run token guards the page and the socket; Host and Origin checks stop DNS-rebinding and other sites.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  let port = 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const hostOk = (req: IncomingMessage) => allowedHosts().includes(req.headers.host ?? '');

  const serveStatic = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname === '/' || url.pathname === '/index.html') {
      if (url.searchParams.get('token') !== token) {
        res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
        res.end('Forbidden: open the URL printed by `conversation-inspector serve` (it carries the access token).');
        return;
      }
    }
    const relative = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const file = normalize(join(options.staticDir, relative));
    if (!file.startsWith(normalize(options.staticDir) + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
      res.end('Not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store', ...SECURITY_HEADERS });
    res.end(readFileSync(file));
  };

  const http: Server = createServer((req, res) => {
    if (!hostOk(req)) {
      res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Misdirected request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET' });
      res.end();
      return;
    }
    serveStatic(req, res);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
  const clients = new Set<WebSocket>();
  http.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const origin = req.headers.origin;
    const originOk = origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
    if (!hostOk(req) || !originOk || url.pathname !== '/ws' || url.searchParams.get('token') !== token) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      ws.on('close', () => clients.delete(ws));
      // An oversized or broken frame closes this socket (1009 and the like); it must never crash the server.
      ws.on('error', () => ws.terminate());
      ws.on('message', async (data) => {
        let msg: { id?: unknown; channel?: unknown; input?: unknown };
        try {
          msg = JSON.parse(String(data));
        } catch {
          ws.send(JSON.stringify({ id: null, result: { ok: false, error: { code: 'BAD_INPUT', message: 'messages must be JSON' } } }));
          return;
        }
        const result = await dispatch(options.handlers, msg.channel, msg.input);
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: msg.id ?? null, result }));
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    broadcast(event, payload) {
      if (!EVENT_NAMES.includes(event)) return;
      const text = JSON.stringify({ event, payload });
      for (const c of clients) if (c.readyState === c.OPEN) c.send(text);
    },
    close: async () => {
      for (const c of clients) c.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
