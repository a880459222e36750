import { getTokenizer, resolveEncoding } from '../../src/core/tokenizer/index.js';

export interface TokenJob {
  model: string;
  texts: string[];
  /** Each message's tool calls as sent (names and arguments; '' for none), counted on top of its text. */
  tools?: string[];
  /** Rendered blocks, each with the blank line after it except the last. */
  blocks: string[];
}

export interface TokenJobResult {
  encoding: string;
  approximate: boolean;
  /** What the model is sent per message: content plus tool calls. */
  tokens: number[];
  /** The tool-call share of `tokens`. */
  toolTokens: number[];
  renderedTokens: number[];
}

/** Counts a job in chunks, reporting progress after each; `yieldEvery` lets a caller stay responsive. */
export async function runTokenJob(job: TokenJob, onProgress: (done: number, total: number) => void, pause?: () => Promise<void>): Promise<TokenJobResult> {
  const choice = resolveEncoding(job.model);
  const tokenizer = getTokenizer(job.model);
  const n = job.texts.length;
  const tokens = new Array<number>(n);
  const toolTokens = new Array<number>(n).fill(0);
  const renderedTokens = new Array<number>(n);
  const chunk = 500;
  for (let i = 0; i < n; i += chunk) {
    const end = Math.min(n, i + chunk);
    for (let j = i; j < end; j++) {
      const tool = job.tools?.[j] ?? '';
      toolTokens[j] = tool === '' ? 0 : tokenizer.count(tool);
      tokens[j] = (job.texts[j].trim().length === 0 ? 0 : tokenizer.count(job.texts[j])) + toolTokens[j];
      renderedTokens[j] = tokenizer.count(job.blocks[j]);
    }
    onProgress(end, n);
    if (pause) await pause();
  }
  if (n === 0) onProgress(0, 0);
  return { encoding: choice.encoding, approximate: choice.approximate, tokens, toolTokens, renderedTokens };
}
