import { codePointLength } from '../render.js';
import type { Measure } from './types.js';

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/u.test(c);
const isLineBreak = (c: string | undefined): boolean => c === '\n' || c === '\r';

/**
 * Where truncation cuts a message that crosses the budget (a UTF-16 offset; the kept text is
 * `text.slice(0, cut)`): the latest sentence end or line break inside the longest fitting prefix when it
 * lies in the prefix's last quarter, else the latest white space, else the raw prefix.
 */
export function truncationCut(text: string, room: number, tokenizer: Measure): number {
  const end = tokenizer.fitPrefixEnd(text, room);
  const prefixLength = codePointLength(text.slice(0, end));
  for (let i = end; i >= 0; i--) {
    const sentenceEnd = i > 0 && '.!?'.includes(text[i - 1]) && (i === text.length || isSpace(text[i]));
    const lineBreak = i < text.length && isLineBreak(text[i]);
    if (sentenceEnd || lineBreak) {
      if (codePointLength(text.slice(0, i)) * 4 >= prefixLength * 3) return i;
      break;
    }
  }
  for (let i = end; i >= 0; i--) {
    if (i < text.length && isSpace(text[i])) return i;
  }
  return end;
}
