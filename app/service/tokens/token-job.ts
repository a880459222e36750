import { getTokenizer, resolveEncoding } from '../../../src/core/tokenizer/index.js';

export interface TokenJob {
  model: string;
  /** Per message, the texts of what it sends (each part counted on its own, as the library counts). */
  parts: string[][];
  /** Per message, the texts of its tool calls (a share of `parts`). */
  tools?: string[][];
  /** Per message, its reasoning, counted apart. */
  reasoning?: string[][];
  /** Rendered blocks, each with the blank line after it except the last. */
  blocks: string[];
}

export interface TokenJobResult {
  encoding: string;
  approximate: boolean;
  /** What the model is sent per message: its text, tool calls and tool results. */
  tokens: number[];
  /** The tool-call share of `tokens`. */
  toolTokens: number[];
  reasoningTokens: number[];
  renderedTokens: number[];
}

/** Counts a job in chunks, reporting progress after each; `pause` lets a caller stay responsive. */
export async function runTokenJob(job: TokenJob, onProgress: (done: number, total: number) => void, pause?: () => Promise<void>): Promise<TokenJobResult> {
  const choice = resolveEncoding(job.model);
  const tokenizer = getTokenizer(job.model);
  const n = job.parts.length;
  const count = (texts: readonly string[] | undefined) => {
    let t = 0;
    for (const s of texts ?? []) if (s.length > 0) t += tokenizer.count(s);
    return t;
  };
  const tokens = new Array<number>(n);
  const toolTokens = new Array<number>(n);
  const reasoningTokens = new Array<number>(n);
  const renderedTokens = new Array<number>(n);
  const chunk = 500;
  for (let i = 0; i < n; i += chunk) {
    const end = Math.min(n, i + chunk);
    for (let j = i; j < end; j++) {
      tokens[j] = count(job.parts[j]);
      toolTokens[j] = count(job.tools?.[j]);
      reasoningTokens[j] = count(job.reasoning?.[j]);
      renderedTokens[j] = job.blocks[j] ? tokenizer.count(job.blocks[j]) : 0;
    }
    onProgress(end, n);
    if (pause) await pause();
  }
  if (n === 0) onProgress(0, 0);
  return { encoding: choice.encoding, approximate: choice.approximate, tokens, toolTokens, reasoningTokens, renderedTokens };
}
