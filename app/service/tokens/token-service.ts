import { Worker } from 'node:worker_threads';
import { runTokenJob, type TokenJob, type TokenJobResult } from './token-job.js';

export type Progress = (done: number, total: number) => void;

export interface TokenService {
  count(job: TokenJob, onProgress: Progress): Promise<TokenJobResult>;
  /**
   * Readies a counter for this model in the background (a worker started, its encoder built): a file being
   * opened will be counted next, and its first screen should not wait for that.
   */
  prepare?(model: string): void;
  close(): Promise<void>;
}

const WARM_UP: Omit<TokenJob, 'model'> = { parts: [['warm up']], blocks: ['warm up'] };

/** Counts in this thread, yielding between chunks (tests, and a fallback when no worker file exists). */
export class InlineTokenService implements TokenService {
  count(job: TokenJob, onProgress: Progress): Promise<TokenJobResult> {
    return runTokenJob(job, onProgress, () => new Promise((r) => setImmediate(r)));
  }
  async close(): Promise<void> {}
}

/** Counts in a persistent worker thread, one job after another. */
export class WorkerTokenService implements TokenService {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: TokenJobResult) => void; reject: (e: Error) => void; progress: Progress }>();

  constructor(private readonly workerUrl: URL, private readonly execArgv: string[] = []) {}

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerUrl, { execArgv: this.execArgv });
    worker.on('message', (msg: { id: number; progress?: { done: number; total: number }; result?: TokenJobResult; error?: string }) => {
      const job = this.pending.get(msg.id);
      if (!job) return;
      if (msg.progress) {
        job.progress(msg.progress.done, msg.progress.total);
        return;
      }
      this.pending.delete(msg.id);
      // An idle worker must not keep the process alive; a busy one must.
      if (this.pending.size === 0) worker.unref();
      if (msg.result) job.resolve(msg.result);
      else job.reject(new Error(msg.error ?? 'token worker failed'));
    });
    worker.on('error', (e) => this.failAll(e));
    worker.on('exit', () => {
      this.worker = undefined;
      this.failAll(new Error('the token worker stopped'));
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private failAll(e: Error): void {
    for (const job of this.pending.values()) job.reject(e);
    this.pending.clear();
  }

  prepare(model: string): void {
    // Built once per worker and encoding, then kept: a second call costs a message.
    this.count({ model, ...WARM_UP }, () => {}).catch(() => {});
  }

  count(job: TokenJob, onProgress: Progress): Promise<TokenJobResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress: onProgress });
      const worker = this.ensure();
      worker.ref();
      worker.postMessage({ id, job });
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}
