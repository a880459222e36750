import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readForCatalog, type CatalogRead } from './read-file.js';
import { secretsOfFile } from './read-secrets.js';

/** What reads files for the catalog: on this thread, or on threads of their own. */
export interface Readers {
  /** How many files it reads at once. */
  readonly width: number;
  read(file: string, size: number): Promise<CatalogRead>;
  /** The secrets in each conversation of a file (read-secrets.ts). */
  secrets(file: string, size: number): Promise<number[]>;
  close(): void;
}

/** Files read one at a time on this thread. */
export const inlineReaders: Readers = { width: 1, read: async (file, size) => readForCatalog(file, size), secrets: secretsOfFile, close: () => {} };

type Job = { file: string; size: number } & ({ kind: 'read'; resolve: (read: CatalogRead) => void } | { kind: 'secrets'; resolve: (counts: number[]) => void });

/** Files read on `width` threads of their own, each running `url` (read-worker). */
export class WorkerReaders implements Readers {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private started = 0;
  private closed = false;

  constructor(
    private readonly url: URL,
    readonly width: number,
    private readonly execArgv: string[] = [],
  ) {}

  /** How many threads it runs (none until a file is given). */
  get threads(): number {
    return this.started;
  }

  // Started at the first file given, not before: a catalog that is up to date reads nothing and starts none.
  private start(): Worker {
    this.started++;
    const w = new Worker(this.url, { execArgv: this.execArgv });
    w.unref();
    w.on('message', (msg: { read: CatalogRead } | { secrets: number[] }) => {
      const job = this.busy.get(w);
      this.busy.delete(w);
      if (job?.kind === 'read' && 'read' in msg) job.resolve(msg.read);
      else if (job?.kind === 'secrets' && 'secrets' in msg) job.resolve(msg.secrets);
      this.next(w);
    });
    // A reader that dies (out of memory on a hostile file, say) fails the file it had, not the catalog.
    let gone = false;
    const died = (why: string) => {
      const job = this.busy.get(w);
      this.busy.delete(w);
      if (job?.kind === 'read') job.resolve({ failure: { error: `could not be read (${why})` }, bytes: job.size });
      else job?.resolve([-1]);
      // An error is followed by an exit: one reader gone, counted once.
      if (!gone) this.started--;
      gone = true;
      if (!this.closed && job) this.next(this.start());
    };
    w.on('error', (e) => died(e.message));
    w.on('exit', (code) => died(`its reader stopped: exit ${code}`));
    return w;
  }

  private next(w: Worker): void {
    const job = this.queue.shift();
    if (!job) return void this.idle.push(w);
    this.busy.set(w, job);
    w.ref();
    w.postMessage({ file: job.file, size: job.size, kind: job.kind });
  }

  read(file: string, size: number): Promise<CatalogRead> {
    return new Promise((resolve) => {
      this.queue.push({ file, size, kind: 'read', resolve });
      const w = this.idle.pop() ?? (this.started < this.width && !this.closed ? this.start() : undefined);
      if (w) this.next(w);
    });
  }

  secrets(file: string, size: number): Promise<number[]> {
    return new Promise((resolve) => {
      this.queue.push({ file, size, kind: 'secrets', resolve });
      const w = this.idle.pop() ?? (this.started < this.width && !this.closed ? this.start() : undefined);
      if (w) this.next(w);
    });
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
