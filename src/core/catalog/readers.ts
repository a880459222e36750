import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CatalogRead } from './read-file.js';
import type { Indexed } from './shards.js';

/** Where a file read whole goes in the index: the shard each reader thread (numbered from 1) writes, and the file's slot. */
export interface ShardPlace {
  shard(n: number): string;
  slot: number;
}

/** What reads files for the catalog: on this thread, or on threads of their own. */
export interface Readers {
  /** How many files it reads at once. */
  readonly width: number;
  /**
   * A file read whole; with `place`, its messages written by the reader thread into its shard of the index
   * (`slot` says so), in transactions of many files: each transaction written is told to `onCommitted`.
   */
  read(file: string, size: number, place?: ShardPlace): Promise<CatalogRead>;
  /** Whether `read` writes shards where it is given a place: threads of their own. */
  readonly shards?: boolean;
  /** What a shard wrote (after the reads of those files were answered); an error where its transaction failed. */
  onCommitted?: (shard: number, indexed: Indexed, error?: string) => void;
  /** Every thread writes what it holds for its shard (told to onCommitted before this resolves). */
  flush?(): Promise<void>;
  /** What the session list needs of a file, from a few of its lines (quick-read.ts); undefined where it is read whole. */
  quick(file: string, size: number): Promise<CatalogRead | undefined>;
  /** The secrets in each conversation of a file (read-secrets.ts). */
  secrets(file: string, size: number): Promise<number[]>;
  close(): void;
}

/** Files read one at a time on this thread (every format's reader loaded at the first). */
export const inlineReaders: Readers = {
  width: 1,
  read: async (file, size) => (await import('./read-file.js')).readForCatalog(file, size),
  quick: async (file, size) => (await import('./quick-read.js')).quickReadForCatalog(file, size),
  secrets: async (file, size) => (await import('./read-secrets.js')).secretsOfFile(file, size),
  close: () => {},
};

/** Files a reader thread holds at once: the one it reads and the next, so that it never waits for this thread. */
const HELD = 2;

type Job = { file: string; size: number } & (
  | { kind: 'read'; resolve: (read: CatalogRead) => void; place?: ShardPlace }
  | { kind: 'flush'; resolve: () => void }
  | { kind: 'quick'; resolve: (read: CatalogRead | undefined) => void }
  | { kind: 'secrets'; resolve: (counts: number[]) => void }
);

/** Files read on `width` threads of their own, each running `url` (read-worker). */
export class WorkerReaders implements Readers {
  readonly shards = true;
  onCommitted?: (shard: number, indexed: Indexed, error?: string) => void;
  private readonly idle: Worker[] = [];
  /** Each thread's number (from 1): the shard it writes; a thread that dies leaves its number to the next. */
  private readonly numbers = new Map<Worker, number>();
  /** Each thread's files, the one it reads first: a thread holds the next file while it reads one. */
  private readonly busy = new Map<Worker, Job[]>();
  private readonly queue: Job[] = [];
  private started = 0;
  private closed = false;

  constructor(
    private readonly url: URL,
    readonly width: number,
    private readonly execArgv: string[] = [],
    /** Given to each thread (a test's runner of the reader from source names it here). */
    private readonly workerData?: unknown,
  ) {}

  /** How many threads it runs (none until a file is given). */
  get threads(): number {
    return this.started;
  }

  // Started at the first file given, not before: a catalog that is up to date reads nothing and starts none.
  private start(): Worker {
    this.started++;
    const w = new Worker(this.url, { execArgv: this.execArgv, workerData: this.workerData });
    const taken = new Set(this.numbers.values());
    let n = 1;
    while (taken.has(n)) n++;
    this.numbers.set(w, n);
    w.unref();
    w.on('message', (msg: { read: CatalogRead } | { quick: CatalogRead | null } | { secrets: number[] } | { flushed: true } | { committed: Indexed; error?: string }) => {
      // A shard's transaction, said apart from the answers to jobs.
      if ('committed' in msg) return this.onCommitted?.(n, msg.committed, msg.error);
      const jobs = this.busy.get(w);
      const job = jobs?.shift();
      if (jobs?.length === 0) this.busy.delete(w);
      if (job?.kind === 'read' && 'read' in msg) job.resolve(msg.read);
      else if (job?.kind === 'quick' && 'quick' in msg) job.resolve(msg.quick ?? undefined);
      else if (job?.kind === 'secrets' && 'secrets' in msg) job.resolve(msg.secrets);
      else if (job?.kind === 'flush' && 'flushed' in msg) job.resolve();
      this.fill(w);
    });
    // A reader that dies (out of memory on a hostile file, say) fails the file it was reading, not the catalog;
    // the file it held next goes to another.
    let gone = false;
    const died = (why: string) => {
      const jobs = this.busy.get(w) ?? [];
      this.busy.delete(w);
      // What it held for its shard is lost with it: those files stay to be read whole again.
      this.numbers.delete(w);
      const idle = this.idle.indexOf(w);
      if (idle !== -1) this.idle.splice(idle, 1);
      const job = jobs.shift();
      if (job?.kind === 'read') job.resolve({ failure: { error: `could not be read (${why})` }, bytes: job.size });
      else if (job?.kind === 'quick') job.resolve(undefined);
      else if (job?.kind === 'flush') job.resolve();
      else job?.resolve([-1]);
      for (let k = jobs.length - 1; k >= 0; k--) {
        const left = jobs[k];
        // A flush is its thread's own: what it held went with it.
        if (left.kind === 'flush') left.resolve();
        else this.queue.unshift(left);
      }
      // An error is followed by an exit: one reader gone, counted once.
      if (!gone) this.started--;
      gone = true;
      if (!this.closed && this.queue.length > 0) this.fill(this.start());
    };
    w.on('error', (e) => died(e.message));
    w.on('exit', (code) => died(`its reader stopped: exit ${code}`));
    return w;
  }

  /** Gives `w` files from the queue up to what it holds at once; a thread given none is idle. */
  private fill(w: Worker): void {
    let jobs = this.busy.get(w);
    while (this.queue.length > 0 && (jobs?.length ?? 0) < HELD) {
      const job = this.queue.shift()!;
      if (!jobs) this.busy.set(w, (jobs = []));
      this.post(w, jobs, job);
    }
    if (!jobs && !this.idle.includes(w)) this.idle.push(w);
  }

  private post(w: Worker, jobs: Job[], job: Job): void {
    jobs.push(job);
    w.ref();
    if (job.kind === 'flush') w.postMessage({ kind: 'flush' });
    else if (job.kind === 'read' && job.place) w.postMessage({ file: job.file, size: job.size, kind: job.kind, shard: job.place.shard(this.numbers.get(w)!), slot: job.place.slot });
    else w.postMessage({ file: job.file, size: job.size, kind: job.kind });
  }

  read(file: string, size: number, place?: ShardPlace): Promise<CatalogRead> {
    return new Promise((resolve) => this.give({ file, size, kind: 'read', resolve, place }));
  }

  /** Each thread writes what it holds for its shard, after the jobs it has. */
  async flush(): Promise<void> {
    const threads = [...this.numbers.keys()];
    await Promise.all(
      threads.map(
        (w) =>
          new Promise<void>((resolve) => {
            let jobs = this.busy.get(w);
            if (!jobs) this.busy.set(w, (jobs = []));
            const idle = this.idle.indexOf(w);
            if (idle !== -1) this.idle.splice(idle, 1);
            this.post(w, jobs, { kind: 'flush', file: '', size: 0, resolve });
          }),
      ),
    );
  }

  quick(file: string, size: number): Promise<CatalogRead | undefined> {
    return new Promise((resolve) => this.give({ file, size, kind: 'quick', resolve }));
  }

  secrets(file: string, size: number): Promise<number[]> {
    return new Promise((resolve) => this.give({ file, size, kind: 'secrets', resolve }));
  }

  private give(job: Job): void {
    this.queue.push(job);
    const w = this.idle.pop() ?? (this.started < this.width && !this.closed ? this.start() : [...this.busy].find(([, jobs]) => jobs.length < HELD)?.[0]);
    if (w) this.fill(w);
  }

  close(): void {
    this.closed = true;
    for (const w of [...this.idle, ...this.busy.keys()]) void w.terminate();
  }
}

/**
 * Readers for this build: threads of their own where the bundled reader ships beside this module (the CLI and
 * the app as built), this thread otherwise (from source, in tests).
 */
export function defaultReaders(url = new URL('./catalog-read-worker.mjs', import.meta.url), width = Math.max(1, Math.min(2, availableParallelism()))): Readers {
  if (!existsSync(fileURLToPath(url))) return inlineReaders;
  return new WorkerReaders(url, width);
}
