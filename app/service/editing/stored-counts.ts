import { isPlainObject } from '../../../src/core/message.js';
import { getTokenizer } from '../../../src/core/tokenizer/index.js';
import type { EncodingName } from '../../../src/core/tokenizer/encoding.js';

const CANDIDATES: EncodingName[] = ['cl100k_base', 'o200k_base'];
const SAMPLE = 40;
/** An encoding is the file's when it gives this share of the sampled counts exactly, and more than the other. */
const AGREEMENT = 0.75;

export interface StoredCounts {
  encoding: EncodingName;
  matches: number;
  sampled: number;
}

/**
 * The encoding a file's stored `token_count`s were counted in, from up to 40 messages with text content (the
 * content-only rule): a recount of an edited message is written in it, so that one file does not mix two
 * encodings. Undefined when the file stores none, or no encoding explains them (a tool that counted otherwise).
 */
export function storedCountEncoding(records: readonly unknown[], preferred?: EncodingName): StoredCounts | undefined {
  const sample: Array<{ content: string; count: number }> = [];
  for (const r of records) {
    if (sample.length >= SAMPLE) break;
    if (isPlainObject(r) && typeof r.token_count === 'number' && typeof r.content === 'string' && r.content.trim() !== '') sample.push({ content: r.content, count: r.token_count });
  }
  if (sample.length === 0) return undefined;
  const score = (encoding: EncodingName) => {
    const t = getTokenizer(encoding);
    return { encoding, matches: sample.filter((s) => t.countContent(s.content) === s.count).length };
  };
  // The picked encoding explaining every count settles it without loading another encoder (half a second).
  if (preferred) {
    const first = score(preferred);
    if (first.matches === sample.length) return { ...first, sampled: sample.length };
  }
  const scored = CANDIDATES.map(score).sort((a, b) => b.matches - a.matches);
  const [best, next] = scored;
  if (best.matches < AGREEMENT * sample.length || best.matches === next.matches) return undefined;
  return { encoding: best.encoding, matches: best.matches, sampled: sample.length };
}
