import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EventName, Result } from '../../shared/contract.js';
import { dispatch } from '../dispatch.js';
import { MemorySecretStore, type SecretStore } from '../secrets.js';
import { API_KEY } from '../handlers/settings.js';
import { createRuntime } from '../../server/runtime.js';
import { appInfo } from '../handlers/directory.js';
import { Roots } from '../roots.js';
import type { BackendOptions, FromService, SecretSnapshot, ToService } from './protocol.js';

/** The handlers, wherever they run: one request function and the events they push. */
export interface Backend {
  readonly kind: 'worker' | 'in-process';
  request(channel: unknown, input: unknown): Promise<Result<unknown>>;
  onEvent: (event: EventName, payload: unknown) => void;
  close(): Promise<void>;
}

/** The secret names the service may need (the summariser's API key). */
const SECRET_NAMES = [API_KEY];

function snapshot(store: SecretStore): SecretSnapshot {
  const values: Record<string, string> = {};
  for (const name of SECRET_NAMES) {
    const v = store.get(name);
    if (v !== undefined) values[name] = v;
  }
  return { kind: store.kind, values };
}

const stopped = (message: string): Result<unknown> => ({ ok: false, error: { code: 'INTERNAL', message } });

/** The document service on its own thread; restarted on the next request if it ever dies. */
class WorkerBackend implements Backend {
  readonly kind = 'worker' as const;
  onEvent: Backend['onEvent'] = () => {};
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (r: Result<unknown>) => void>();
  private closing = false;

  constructor(
    private readonly url: URL,
    private readonly options: BackendOptions,
    private readonly secrets: SecretStore,
  ) {
    this.ensure();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.url, { workerData: { options: this.options, secrets: snapshot(this.secrets) } });
    worker.on('message', (msg: FromService) => {
      if (msg.type === 'result') {
        this.pending.get(msg.id)?.(msg.result);
        this.pending.delete(msg.id);
      } else if (msg.type === 'event') this.onEvent(msg.event, msg.payload);
      else if (msg.type === 'secret') this.secrets.set(msg.name, msg.value);
    });
    const fail = (why: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const resolve of this.pending.values()) resolve(stopped(`the document service stopped (${why}); it restarts with the next request`));
      this.pending.clear();
    };
    worker.on('error', (e) => fail(e.message));
    worker.on('exit', (code) => fail(`exit ${code}`));
    this.worker = worker;
    return worker;
  }

  request(channel: unknown, input: unknown): Promise<Result<unknown>> {
    if (this.closing) return Promise.resolve(stopped('the document service is closing'));
    // Fixed for the service's life: answered here, so that it never waits behind a parse of a big file.
    if (channel === 'app:info') return Promise.resolve({ ok: true, value: appInfo(new Roots(this.options.dirs.map((d) => resolve(d))).all(), this.options.mode, 'worker') });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      try {
        this.ensure().postMessage({ type: 'request', id, channel, input } satisfies ToService);
      } catch (e) {
        this.pending.delete(id);
        resolve({ ok: false, error: { code: 'BAD_INPUT', message: `the request could not be sent: ${(e as Error).message}` } });
      }
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    if (!worker) return;
    const closed = new Promise<void>((resolve) => {
      worker.on('message', (msg: FromService) => msg.type === 'closed' && resolve());
      worker.once('exit', () => resolve());
    });
    worker.postMessage({ type: 'close' } satisfies ToService);
    // The timer must not outlive the close: a pending one keeps the process alive for its 5 s.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise((r) => (timer = setTimeout(r, 5000)))]);
    clearTimeout(timer);
    await worker.terminate();
  }
}

/** The same handlers on this thread: from a checkout that was never built, and in unit tests. */
class InProcessBackend implements Backend {
  readonly kind = 'in-process' as const;
  onEvent: Backend['onEvent'] = () => {};
  private readonly runtime;

  constructor(options: BackendOptions, secrets: SecretStore) {
    this.runtime = createRuntime({ ...options, secrets });
    this.runtime.onEvent = (event, payload) => this.onEvent(event, payload);
  }

  request(channel: unknown, input: unknown): Promise<Result<unknown>> {
    return dispatch(this.runtime.handlers, channel, input);
  }

  close(): Promise<void> {
    return this.runtime.close();
  }
}

/** The service worker ships beside the bundle that starts it (dist/ for the CLI, dist/main/ for Electron). */
export function serviceWorkerUrl(from = import.meta.url): URL {
  return new URL('./service-worker.mjs', from);
}

/**
 * Starts the document service for a set of folders: on its own thread where the built worker exists, on
 * this thread otherwise (a checkout run from source).
 */
export function startBackend(options: BackendOptions, secrets: SecretStore = new MemorySecretStore(), url = serviceWorkerUrl()): Backend {
  for (const d of options.dirs) if (!existsSync(d)) throw new Error(`${d}: no such directory`);
  return existsSync(fileURLToPath(url)) ? new WorkerBackend(url, options, secrets) : new InProcessBackend(options, secrets);
}
