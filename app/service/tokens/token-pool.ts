import { availableParallelism } from 'node:os';
import type { TokenJob, TokenJobResult } from './token-job.js';
import { WorkerTokenService, type Progress, type TokenService } from './token-service.js';

/** Below this many messages one worker finishes before a second would have built its encoder. */
const SPLIT_AT = 2_000;
const SLICE_MAX = 2_000;

function slice(job: TokenJob, start: number, end: number): TokenJob {
  return {
    model: job.model,
    parts: job.parts.slice(start, end),
    tools: job.tools?.slice(start, end),
    reasoning: job.reasoning?.slice(start, end),
    blocks: job.blocks.slice(start, end),
  };
}

/**
 * Counts on several worker threads (one per core, at least two): a long job is cut into slices that workers
 * take as they free up, in message order, so the first messages are counted first.
 */
export class TokenPool implements TokenService {
  private readonly workers: WorkerTokenService[];

  constructor(workerUrl: URL, size = Math.max(2, availableParallelism()), execArgv: string[] = []) {
    this.workers = Array.from({ length: size }, () => new WorkerTokenService(workerUrl, execArgv));
  }

  /** The first worker only: it takes the first screen's counts, and a second one warming would slow the parse. */
  prepare(model: string): void {
    this.workers[0].prepare(model);
  }

  get size(): number {
    return this.workers.length;
  }

  async count(job: TokenJob, onProgress: Progress): Promise<TokenJobResult> {
    const n = job.parts.length;
    if (n < SPLIT_AT) return this.workers[0].count(job, onProgress);
    const tokens = new Array<number>(n);
    const toolTokens = new Array<number>(n);
    const reasoningTokens = new Array<number>(n);
    const renderedTokens = new Array<number>(n);
    // Slices stay short so that a small job (the rows scrolled to) waits for at most one of them.
    const sliceSize = Math.min(SLICE_MAX, Math.max(500, Math.ceil(n / (this.workers.length * 8))));
    let next = 0;
    let done = 0;
    let meta: Pick<TokenJobResult, 'encoding' | 'approximate'> | undefined;
    const drain = async (worker: WorkerTokenService) => {
      while (next < n) {
        const start = next;
        const end = Math.min(n, start + sliceSize);
        next = end;
        const r = await worker.count(slice(job, start, end), () => {});
        meta = { encoding: r.encoding, approximate: r.approximate };
        for (let i = 0; i < end - start; i++) {
          tokens[start + i] = r.tokens[i];
          toolTokens[start + i] = r.toolTokens[i];
          reasoningTokens[start + i] = r.reasoningTokens[i];
          renderedTokens[start + i] = r.renderedTokens[i];
        }
        done += end - start;
        onProgress(done, n);
      }
    };
    await Promise.all(this.workers.map(drain));
    return { ...meta!, tokens, toolTokens, reasoningTokens, renderedTokens };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }
}
