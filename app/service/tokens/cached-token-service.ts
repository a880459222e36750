import { resolveEncoding } from '../../../src/core/tokenizer/index.js';
import type { CountCache } from '../../../src/core/tokenizer/count-cache.js';
import type { TokenJob, TokenJobResult } from './token-job.js';
import type { Progress, TokenService } from './token-service.js';

/**
 * Never counts the same text twice: each distinct text of a job (a message part, a tool call, reasoning, a
 * rendered block) is looked up by its hash, the rest is counted once by `inner` and remembered.
 */
export class CachedTokenService implements TokenService {
  constructor(private readonly inner: TokenService, private readonly cache: CountCache) {}

  prepare(model: string): void {
    this.inner.prepare?.(model);
  }

  async count(job: TokenJob, onProgress: Progress): Promise<TokenJobResult> {
    const { encoding, approximate } = resolveEncoding(job.model);
    const counts = new Map<string, number>();
    const misses: string[] = [];
    const missing = new Set<string>();
    const look = (text: string) => {
      if (counts.has(text) || missing.has(text)) return;
      const hit = this.cache.get(encoding, text);
      if (hit !== undefined) counts.set(text, hit);
      else {
        missing.add(text);
        misses.push(text);
      }
    };
    const n = job.parts.length;
    const lists = [job.parts, job.tools, job.reasoning];
    // Message by message, so that a message's texts and its rendered block reach the same worker, whose piece
    // cache then counts the block almost for free. Parts that are only whitespace count 0, as the library
    // counts them; rendered blocks count as they are.
    for (let i = 0; i < n; i++) {
      for (const list of lists) for (const t of list?.[i] ?? []) if (t.length > 0) look(t);
      if (job.blocks[i]) look(job.blocks[i]);
    }
    if (misses.length > 0) {
      const counted = await this.inner.count({ model: job.model, parts: misses.map(() => []), blocks: misses }, (done, total) => onProgress(Math.floor((done / total) * n), n));
      misses.forEach((text, i) => {
        counts.set(text, counted.renderedTokens[i]);
        this.cache.set(encoding, text, counted.renderedTokens[i]);
      });
      this.cache.flush();
    } else onProgress(n, n);
    const sum = (texts: readonly string[] | undefined) => {
      let total = 0;
      for (const t of texts ?? []) if (t.length > 0) total += counts.get(t)!;
      return total;
    };
    const tokens = new Array<number>(n);
    const toolTokens = new Array<number>(n);
    const reasoningTokens = new Array<number>(n);
    const renderedTokens = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      tokens[i] = sum(job.parts[i]);
      toolTokens[i] = sum(job.tools?.[i]);
      reasoningTokens[i] = sum(job.reasoning?.[i]);
      renderedTokens[i] = job.blocks[i] ? counts.get(job.blocks[i])! : 0;
    }
    return { encoding, approximate, tokens, toolTokens, reasoningTokens, renderedTokens };
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
