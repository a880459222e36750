import { existsSync, statSync } from 'node:fs';
import { splitPartPath } from '../../../src/core/storage/file-parts.js';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EventName, Result, Settings } from '../../shared/contract.js';
import { dispatch } from '../dispatch.js';
import { MemorySecretStore, type SecretStore } from '../state/key-store.js';
import { API_KEY } from '../handlers/settings.js';
import { createRuntime } from '../runtime.js';
import { appInfo } from '../handlers/directory.js';
import { Roots } from '../roots.js';
import { privateStateDir } from '../../../src/core/storage/private-dir.js';
import type { BackendOptions, FromService, SecretSnapshot, ToService } from './protocol.js';
import { changesDocument, EditLog, type FileLog } from './edit-log.js';
import type { DocumentSnapshot } from '../editing/restore.js';

/** The handlers, wherever they run: one request function and the events they push. */
export interface Backend {
  readonly kind: 'worker' | 'in-process';
  request(channel: unknown, input: unknown): Promise<Result<unknown>>;
  onEvent: (event: EventName, payload: unknown) => void;
  /** Whether any document holds edits not saved yet (opening another folder would lose them). */
  unsaved(): Promise<boolean>;
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

/** Files this big get a document service of their own: their parse (seconds at 100 MB) holds up no one else. */
export const OWN_THREAD_BYTES = 8 * 1024 * 1024;
/** Services of one big file kept at most; past this the least recently used one without unsaved edits stops. */
const MAX_OWN_THREADS = 2;

/** One document service thread; restarted on the next request if it ever dies. */
class ServiceThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (r: Result<unknown>) => void>();
  private readonly asked = new Map<number, (unsaved: boolean) => void>();
  /** Internal questions (a document's snapshot, a restore), answered by id; undefined when the service stops. */
  private readonly calls = new Map<number, (msg: FromService | undefined) => void>();
  private started = false;
  /** Which start of the service is running (a document held by an earlier one is gone). */
  start = 0;
  lastUsed = 0;

  constructor(
    private readonly url: URL,
    private readonly workerData: () => unknown,
    private readonly onMessage: (msg: FromService) => void,
    private readonly onStop: () => void = () => {},
    private readonly onRestart: () => void = () => {},
  ) {
    this.ensure();
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Whether the service of this start is still running (not stopped since, nor started again). */
  runs(start: number): boolean {
    return this.worker !== undefined && this.start === start;
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.url, { workerData: this.workerData() });
    worker.on('message', (msg: FromService) => {
      if (msg.type === 'result') {
        this.pending.get(msg.id)?.(msg.result);
        this.pending.delete(msg.id);
      } else if (msg.type === 'unsaved') {
        this.asked.get(msg.id)?.(msg.unsaved);
        this.asked.delete(msg.id);
      } else if (msg.type === 'snapshot' || msg.type === 'restored') {
        this.calls.get(msg.id)?.(msg);
        this.calls.delete(msg.id);
      } else this.onMessage(msg);
    });
    const fail = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const resolve of this.pending.values()) resolve(stopped(`the document service stopped (${why}); it restarts with the next request, and edits not saved yet come back with it`));
      this.pending.clear();
      for (const resolve of this.calls.values()) resolve(undefined);
      this.calls.clear();
      // A service that is gone holds nothing unsaved any more.
      for (const resolve of this.asked.values()) resolve(false);
      this.asked.clear();
      this.onStop();
    };
    worker.on('error', (e) => fail(e.message));
    worker.on('exit', (code) => fail(`exit ${code}`));
    const again = this.started;
    this.started = true;
    this.worker = worker;
    this.start++;
    if (again) this.onRestart();
    return worker;
  }

  request(channel: unknown, input: unknown): Promise<Result<unknown>> {
    this.lastUsed = performance.now();
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

  /** The service running (started again if it stopped): which start it is. */
  running(): number {
    this.ensure();
    return this.start;
  }

  /** An internal question to the running service; undefined if it stops first. */
  ask(msg: Extract<ToService, { type: 'snapshot?' | 'restore' }>): Promise<FromService | undefined> {
    return new Promise((resolve) => {
      this.calls.set(msg.id, resolve);
      try {
        this.ensure().postMessage(msg);
      } catch {
        this.calls.delete(msg.id);
        resolve(undefined);
      }
    });
  }

  nextCallId(): number {
    return this.nextId++;
  }

  /** A message that needs no answer, to a running service (a stopped one starts afresh and needs none). */
  post(msg: ToService): void {
    this.worker?.postMessage(msg);
  }

  unsaved(): Promise<boolean> {
    if (!this.worker) return Promise.resolve(false);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.asked.set(id, resolve);
      this.worker!.postMessage({ type: 'unsaved?', id } satisfies ToService);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const closed = new Promise<void>((resolve) => {
      worker.on('message', (msg: FromService) => msg.type === 'closed' && resolve());
      worker.once('exit', () => resolve());
    });
    worker.postMessage({ type: 'close' } satisfies ToService);
    // The timer must not outlive the close: a pending one keeps the process alive for its 5 s.
    let timer: NodeJS.Timeout | undefined;
    // Long enough for its search thread to end first (cut off with it, the SQLite binding aborts the process).
    await Promise.race([closed, new Promise((r) => (timer = setTimeout(r, 25_000)))]);
    clearTimeout(timer);
    this.worker = undefined;
    await worker.terminate();
  }
}

const pathOf = (input: unknown): string | undefined => {
  const path = (input as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? path : undefined;
};

/**
 * The document services on their own threads: one for the folders (listing, watching, settings) and every
 * file, and one more for each big file, so that a big file's parse delays only the requests about it. Main
 * and the server only route.
 */
class WorkerBackend implements Backend {
  readonly kind = 'worker' as const;
  onEvent: Backend['onEvent'] = () => {};
  private readonly roots: Roots;
  private readonly main: ServiceThread;
  /** Which service holds each file a request has named (a file stays with the service that first had it). */
  private readonly assigned = new Map<string, ServiceThread>();
  private readonly own = new Map<string, ServiceThread>();
  /** A service started ahead, for the next big file: its start (a fifth of a second) is not the open's. */
  private spare: ServiceThread | undefined;
  private spareTimer: NodeJS.Timeout | undefined;
  private settings: Settings | undefined;
  private closing = false;
  /** Each file's unsaved edits, kept here so that they outlive a service that stops (edit-log.ts). */
  private readonly edits = new EditLog();

  constructor(
    private readonly url: URL,
    private readonly options: BackendOptions,
    private readonly secrets: SecretStore,
  ) {
    this.roots = new Roots(options.dirs.map((d) => resolve(d)));
    this.main = new ServiceThread(
      url,
      () => ({ options, secrets: snapshot(secrets) }),
      (msg) => this.heard(this.main, msg),
      undefined,
      // A main service started again learns which files are held elsewhere.
      () => this.told(),
    );
  }

  private heard(from: ServiceThread, msg: FromService): void {
    if (msg.type === 'event') this.onEvent(msg.event, msg.payload);
    else if (msg.type === 'secret') {
      this.secrets.set(msg.name, msg.value);
      for (const t of this.threads()) if (t !== from) t.post({ type: 'secret', name: msg.name, value: msg.value });
    } else if (msg.type === 'listing') {
      if (from !== this.main) this.main.post({ type: 'listing', note: msg.note });
    } else if (msg.type === 'writing') {
      this.edits.writing(msg.path, msg.writing);
    } else if (msg.type === 'elsewhere') {
      // What the main service's watchers saw of files held by services of their own: theirs to report.
      for (const e of msg.events) (this.own.get(e.path) ?? this.main).post({ type: 'changed-on-disk', events: [e] });
    }
  }

  private threads(): ServiceThread[] {
    return [this.main, ...this.own.values(), ...(this.spare ? [this.spare] : [])];
  }

  private told(): void {
    this.main.post({ type: 'elsewhere', paths: [...this.own.keys()] });
  }

  /** The service for a request: a big file's own (started on its first request), or the main one. */
  private serviceFor(channel: unknown, input: unknown): ServiceThread {
    const path = pathOf(input);
    if (path === undefined) return this.main;
    let file: string;
    try {
      file = this.roots.resolve(path);
    } catch {
      return this.main; // it answers with the reason
    }
    const held = this.assigned.get(file);
    // The head of a big file comes from the main service while its own one is still reading it.
    if (channel === 'conversation:peek') return held && !held.busy ? held : this.main;
    if (held) return held;
    let size = 0;
    try {
      // A part of a file read a part at a time is read in a service of its own, as a big file is.
      const part = splitPartPath(file);
      size = statSync(part && !existsSync(file) ? part.file : file).size;
    } catch {
      // not there (yet): the main service answers
    }
    const service = size >= OWN_THREAD_BYTES ? this.startOwn(file) : this.main;
    this.assigned.set(file, service);
    return service;
  }

  private newOwnThread(): ServiceThread {
    const stop = () => {
      if (this.spare === thread) this.spare = undefined;
      for (const [file, t] of this.own) {
        if (t !== thread) continue;
        this.own.delete(file);
        this.assigned.delete(file);
        this.told();
      }
    };
    const thread: ServiceThread = new ServiceThread(this.url, () => ({ options: { ...this.options, watch: false }, secrets: snapshot(this.secrets) }), (msg) => this.heard(thread, msg), stop);
    if (this.settings) thread.post({ type: 'settings', value: this.settings });
    return thread;
  }

  /** A spare service for the next big file, started a moment after one is taken (not before any: it costs a thread). */
  private keepSpare(): void {
    if (this.spare || this.spareTimer || this.closing) return;
    this.spareTimer = setTimeout(() => {
      this.spareTimer = undefined;
      if (!this.spare && !this.closing) this.spare = this.newOwnThread();
    }, 2000);
    this.spareTimer.unref();
  }

  private startOwn(file: string): ServiceThread {
    const thread = this.spare ?? this.newOwnThread();
    this.spare = undefined;
    this.own.set(file, thread);
    this.told();
    void this.retireIdle(thread);
    // Where one big file was opened, another may follow: its service is started ahead, once things are quiet.
    this.keepSpare();
    return thread;
  }

  /** Past the limit, the least recently used services of one file stop, unless they hold unsaved edits. */
  private async retireIdle(keep: ServiceThread): Promise<void> {
    const others = [...this.own.entries()].filter(([, t]) => t !== keep).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    let excess = this.own.size - MAX_OWN_THREADS;
    for (const [file, thread] of others) {
      if (excess <= 0) return;
      if (thread.busy || (await thread.unsaved())) continue;
      if (this.own.get(file) !== thread) continue;
      this.own.delete(file);
      this.assigned.delete(file);
      excess--;
      this.told();
      await thread.close();
    }
  }

  async request(channel: unknown, input: unknown): Promise<Result<unknown>> {
    if (this.closing) return stopped('the document service is closing');
    // Fixed for the service's life: answered here, so that it never waits behind a parse of a big file.
    if (channel === 'app:info') return { ok: true, value: appInfo(this.roots.all(), this.options.mode, 'worker') };
    const service = this.serviceFor(channel, input);
    const file = this.fileOf(input);
    // Only when there is something to do (a request forwarded a moment later can land behind a big file's parse).
    if (file !== undefined && channel !== 'conversation:peek' && this.editsToBring(file, service, channel) && !(await this.bringEdits(file, service, channel))) {
      return stopped(`the edits of ${pathOf(input)} not saved yet could not be made again in the document service (it stopped again); they are kept: try again`);
    }
    const start = service.running();
    const result = await service.request(channel, input);
    // A save cut off by the service stopping may have written the file: what it was writing stays known.
    const cut = !service.runs(start);
    if (file !== undefined && typeof channel === 'string' && this.edits.answered(file, channel, input, result, cut) === 'saved') {
      // Saved: the log starts again from the file as written.
      const snapshot = await this.snapshot(service, file);
      this.edits.start(file, snapshot, { service, start: service.start });
    }
    if ((channel === 'settings:get' || channel === 'settings:set') && result.ok) {
      this.settings = result.value as Settings;
      if (channel === 'settings:set') for (const t of this.threads()) if (t !== this.main) t.post({ type: 'settings', value: this.settings });
    }
    // A file's roles are a setting its own service changed: every other service takes the settings as they are now.
    if (channel === 'conversation:set-role' && result.ok) {
      const now = await service.request('settings:get', {});
      if (now.ok) {
        this.settings = now.value as Settings;
        for (const t of this.threads()) if (t !== service) t.post({ type: 'settings', value: this.settings });
      }
    }
    return result;
  }

  async unsaved(): Promise<boolean> {
    if (this.edits.holdsEdits()) return true;
    const answers = await Promise.all(this.threads().map((t) => t.unsaved()));
    return answers.some(Boolean);
  }

  /** The file a request is about (absolute), if it names one inside the folders. */
  private fileOf(input: unknown): string | undefined {
    const path = pathOf(input);
    if (path === undefined) return undefined;
    try {
      return this.roots.resolve(path);
    } catch {
      return undefined;
    }
  }

  private async snapshot(service: ServiceThread, file: string): Promise<DocumentSnapshot | undefined> {
    const answer = await service.ask({ type: 'snapshot?', id: service.nextCallId(), path: file });
    return answer?.type === 'snapshot' ? answer.snapshot : undefined;
  }

  /**
   * Before a request about a file: its logged edits are made again in the service that holds it now, if that is
   * not the one they were made in (it stopped and started again, or the file moved to a service of its own); the
   * first edit of a file is logged from a snapshot of what it is made over.
   */
  private async bringEdits(file: string, service: ServiceThread, channel: unknown): Promise<boolean> {
    const start = service.running();
    const log = this.edits.get(file);
    if (log && this.lost(log, service, start)) {
      const answer = await service.ask({ type: 'restore', id: service.nextCallId(), path: file, snapshot: log.snapshot, entries: log.entries, writing: log.writing });
      if (answer?.type !== 'restored' || !answer.restored) return false; // stopped again, or could not: kept for the next request
      if (answer.restored.saved) this.edits.start(file, await this.snapshot(service, file), { service, start });
      else {
        log.at = { service, start };
        log.writing = undefined;
      }
      return true;
    }
    if (!log && changesDocument(channel)) this.edits.start(file, await this.snapshot(service, file), { service, start });
    return true;
  }

  private editsToBring(file: string, service: ServiceThread, channel: unknown): boolean {
    const log = this.edits.get(file);
    return log ? this.lost(log, service, service.running()) : changesDocument(channel);
  }

  /** Whether the service a file's edits were made in is gone (stopped, or started again since). */
  private lost(log: FileLog, service: ServiceThread, start: number): boolean {
    const at = log.at;
    if (!at) return true;
    if (at.service === service) return at.start !== start;
    const before = at.service as ServiceThread;
    return !this.threads().includes(before) || before.start !== at.start;
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.spareTimer);
    await Promise.all(this.threads().map((t) => t.close()));
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

  unsaved(): Promise<boolean> {
    return Promise.resolve(this.runtime.context.documents.hasUnsaved());
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
  // The state folder is looked at here, once (what was done about it said once), and its threads told which it is.
  const withState = { ...options, stateDir: options.stateDir ?? privateStateDir() };
  return existsSync(fileURLToPath(url)) ? new WorkerBackend(url, withState, secrets) : new InProcessBackend(withState, secrets);
}
