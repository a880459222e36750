import type { EventName, EventPayload, RequestInput, RequestName, RequestOutput, Result } from '../../shared/contract.js';

/** What the preload exposes in Electron; in a browser the same shape is built over a WebSocket. */
export interface Bridge {
  request(channel: string, input: unknown): Promise<Result<unknown>>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
}

declare global {
  interface Window {
    bridge?: Bridge;
  }
}

export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly line?: number,
    readonly column?: number,
    /** INVALID: what the file's own tool could no longer read. */
    readonly problems?: readonly string[],
    /** The file's syntax is sound; only its shape is unknown here. */
    readonly wellFormed?: boolean,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

function webSocketBridge(): Bridge {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const url = `ws://${location.host}/ws?token=${encodeURIComponent(token)}`;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const pending = new Map<number, (r: Result<unknown>) => void>();
  let nextId = 1;
  let socket: WebSocket | undefined;
  let opened: Promise<WebSocket> | undefined;
  const connect = (): Promise<WebSocket> =>
    (opened ??= new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => {
        socket = ws;
        resolve(ws);
      };
      ws.onerror = () => reject(new RequestError('INTERNAL', 'cannot reach the inspector server; is `conversation-inspector serve` still running?'));
      ws.onclose = () => {
        opened = undefined;
        socket = undefined;
        for (const done of pending.values()) done({ ok: false, error: { code: 'INTERNAL', message: 'the connection to the inspector server closed' } });
        pending.clear();
      };
      ws.onmessage = (e) => {
        const msg = JSON.parse(String(e.data));
        if (typeof msg.event === 'string') listeners.get(msg.event)?.forEach((l) => l(msg.payload));
        else pending.get(msg.id)?.(msg.result);
        pending.delete(msg.id);
      };
    }));
  return {
    async request(channel, input) {
      const ws = socket ?? (await connect());
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        ws.send(JSON.stringify({ id, channel, input }));
      });
    },
    subscribe(event, listener) {
      void connect().catch(() => {});
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return () => listeners.get(event)?.delete(listener);
    },
  };
}

let bridge: Bridge | undefined;
export function setBridge(b: Bridge): void {
  bridge = b;
}
function current(): Bridge {
  return (bridge ??= window.bridge ?? webSocketBridge());
}

/** Requests that change a document (main tells every window of it: `conversation:changed`). */
const CHANGING: ReadonlySet<string> = new Set<RequestName>(['edit:apply', 'edit:undo', 'edit:redo', 'edit:save', 'edit:revert', 'edit:merge', 'history:restore', 'secrets:redact', 'window:compact', 'conversation:path', 'conversation:reveal', 'conversation:set-role']);
const changing = new Set<Promise<unknown>>();

/** A typed request; failures become RequestError with the code and position main sent. */
export async function request<N extends RequestName>(channel: N, input: RequestInput<N>): Promise<RequestOutput<N>> {
  const asked = current().request(channel, input);
  if (CHANGING.has(channel)) {
    changing.add(asked);
    void asked.finally(() => changing.delete(asked)).catch(() => {});
  }
  const result = await asked;
  if (!result.ok) throw new RequestError(result.error.code, result.error.message, result.error.line, result.error.column, result.error.problems, result.error.wellFormed);
  return result.value as RequestOutput<N>;
}

/**
 * Resolves once this window's own changes under way are answered and shown: a change another window hears
 * of is news there, and here only when it is not this window's own (main tells before it answers).
 */
export async function ownChangesShown(): Promise<void> {
  while (changing.size > 0) await Promise.allSettled([...changing]);
  // The answers' handlers show them in the turn after.
  await new Promise((resolve) => setTimeout(resolve, 0));
}

export function subscribe<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
  return current().subscribe(event, listener as (p: unknown) => void);
}
