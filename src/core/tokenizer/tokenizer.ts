import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { contentText } from '../message.js';
import { bytePairEncode, type RankMap } from './bpe.js';
import { MAX_PIECE_CHARS } from '../limits.js';
import { resolveEncoding, type EncodingChoice, type EncodingName } from './encoding.js';

const require = createRequire(import.meta.url);

// Loaded through require so that only the encodings actually used are parsed (each is 0.5-2 MB of ranks).
const RANK_LOADERS: Record<EncodingName, () => TiktokenBPE> = {
  o200k_base: () => require('js-tiktoken/ranks/o200k_base') as TiktokenBPE,
  cl100k_base: () => require('js-tiktoken/ranks/cl100k_base') as TiktokenBPE,
  p50k_base: () => require('js-tiktoken/ranks/p50k_base') as TiktokenBPE,
  p50k_edit: () => require('js-tiktoken/ranks/p50k_edit') as TiktokenBPE,
  r50k_base: () => require('js-tiktoken/ranks/r50k_base') as TiktokenBPE,
  gpt2: () => require('js-tiktoken/ranks/gpt2') as TiktokenBPE,
};

/** Caches stop growing past this many stored characters and start over, so memory stays bounded. */
const CACHE_CHAR_LIMIT = 64 * 1024 * 1024;
const TEXT_CACHE_MAX_LENGTH = 16 * 1024;

class BoundedCountCache {
  private map = new Map<string, number>();
  private chars = 0;
  get(key: string): number | undefined {
    return this.map.get(key);
  }
  set(key: string, value: number): void {
    if (this.chars + key.length > CACHE_CHAR_LIMIT) {
      this.map.clear();
      this.chars = 0;
    }
    this.map.set(key, value);
    this.chars += key.length;
  }
  get size(): number {
    return this.map.size;
  }
}

/**
 * One encoding: exact token counts with special tokens counted as plain text.
 *
 * Counting goes through the encoding's own pre-tokenizer pieces. Its pattern has no look-behind, so a
 * suffix that starts on a piece boundary splits into exactly the same pieces: suffix counts are sums of
 * cached piece counts, which is what makes trimming a long history cheap.
 */
/** Where counts are kept between runs (see count-cache.ts): by encoding and text. */
export interface PersistentCounts {
  get(encoding: string, text: string): number | undefined;
  set(encoding: string, text: string, count: number): void;
}

let defaultPersistent: PersistentCounts | undefined;

/**
 * Every tokenizer keeps its counts in `counts` from now on (the CLI: a second `show` of a file never loads an
 * encoding). Undefined turns it off; the library alone never turns it on.
 */
export function keepCountsIn(counts: PersistentCounts | undefined): void {
  defaultPersistent = counts;
}

export class Tokenizer {
  readonly encoding: EncodingName;
  private encoder: Tiktoken | undefined;
  private pattern: RegExp | undefined;
  private ranks: RankMap | undefined;
  private readonly utf8 = new TextEncoder();
  private readonly textCache = new BoundedCountCache();
  private readonly pieceCache = new BoundedCountCache();

  constructor(encoding: EncodingName) {
    this.encoding = encoding;
  }

  private get tiktoken(): Tiktoken {
    if (!this.encoder) {
      const ranks = RANK_LOADERS[this.encoding]();
      this.encoder = new Tiktoken(ranks);
      this.pattern = new RegExp(ranks.pat_str, 'gu');
      // js-tiktoken's own byte-sequence → rank map (bytes joined by ","), shared rather than built twice.
      const own = (this.encoder as unknown as { rankMap?: unknown }).rankMap;
      if (!(own instanceof Map) || own.size === 0) throw new Error(`js-tiktoken changed: no rank map for ${this.encoding}`);
      this.ranks = own as RankMap;
    }
    return this.encoder;
  }

  private get rankMap(): RankMap {
    if (!this.ranks) void this.tiktoken;
    return this.ranks as RankMap;
  }

  /**
   * The tokens of one pre-tokenizer piece, by the O(n log n) merge (the same tokens as js-tiktoken); a piece past
   * MAX_PIECE_CHARS a chunk at a time.
   */
  private encodePiece(piece: string): number[] {
    if (piece.length <= MAX_PIECE_CHARS) return bytePairEncode(this.utf8.encode(piece), this.rankMap);
    const out: number[] = [];
    for (const chunk of chunksOf(piece, MAX_PIECE_CHARS)) for (const t of bytePairEncode(this.utf8.encode(chunk), this.rankMap)) out.push(t);
    return out;
  }

  private get piecePattern(): RegExp {
    if (!this.pattern) void this.tiktoken;
    return this.pattern as RegExp;
  }

  /** The tokens of `text`, special tokens read as plain text (as js-tiktoken's encode(text, [], [])). */
  encode(text: string): number[] {
    const out: number[] = [];
    this.eachPiece(text, (piece) => {
      for (const t of this.encodePiece(piece)) out.push(t);
    });
    return out;
  }

  decode(tokens: number[]): string {
    return this.tiktoken.decode(tokens);
  }

  /** Exact number of tokens of `text` (from the counts kept between runs, when they are kept). */
  count(text: string): number {
    if (text.length === 0) return 0;
    const kept = defaultPersistent?.get(this.encoding, text);
    if (kept !== undefined) return kept;
    const n = this.countNow(text);
    defaultPersistent?.set(this.encoding, text, n);
    return n;
  }

  private countNow(text: string): number {
    // Long texts are not kept as cache keys: their pieces are cached, which makes a recount cheap anyway.
    if (text.length > TEXT_CACHE_MAX_LENGTH) return this.sumPieces(text);
    const cached = this.textCache.get(text);
    if (cached !== undefined) return cached;
    const n = this.sumPieces(text);
    this.textCache.set(text, n);
    return n;
  }

  /** The `token_count` of a message's content: content only, and 0 for empty or white-space-only text. */
  countContent(content: unknown): number {
    const text = contentText(content);
    if (text.trim().length === 0) return 0;
    return this.count(text);
  }

  /** The pre-tokenizer pieces of `text`, in order; their concatenation is `text`. */
  pieces(text: string): string[] {
    const out: string[] = [];
    this.eachPiece(text, (p) => out.push(p));
    return out;
  }

  /** Each pre-tokenizer piece of `text` in turn, none kept (a 200 MB text is 40 million pieces). */
  private eachPiece(text: string, take: (piece: string) => void): void {
    const re = this.piecePattern;
    re.lastIndex = 0;
    let last = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      // The pattern matches every character, so gaps cannot happen; kept defensive for odd encodings.
      if (m.index > last) take(text.slice(last, m.index));
      take(m[0]);
      last = m.index + m[0].length;
    }
    if (last < text.length) take(text.slice(last));
  }

  pieceCount(piece: string): number {
    // A piece this long is no cache key (the cache is kept to 64 M characters); its chunks are.
    if (piece.length > MAX_PIECE_CHARS) {
      let n = 0;
      for (const chunk of chunksOf(piece, MAX_PIECE_CHARS)) n += this.pieceCount(chunk);
      return n;
    }
    const cached = this.pieceCache.get(piece);
    if (cached !== undefined) return cached;
    const n = this.encodePiece(piece).length;
    this.pieceCache.set(piece, n);
    return n;
  }

  private sumPieces(text: string): number {
    let n = 0;
    this.eachPiece(text, (p) => (n += this.pieceCount(p)));
    return n;
  }

  /**
   * UTF-16 offset where the longest suffix of `text` that fits `limit` tokens starts (always a code
   * point boundary). Uses one pre-tokenizer pass, cached piece counts, a search inside the one piece that
   * straddles the boundary, and a final verifying count.
   */
  fitSuffixStart(text: string, limit: number): number {
    return this.fitSuffix(text, limit).start;
  }

  /** The longest fitting suffix: where it starts and its exact token count (no second pass needed). */
  fitSuffix(text: string, limit: number): { start: number; tokens: number } {
    if (limit <= 0 || text.length === 0) return { start: text.length, tokens: 0 };
    const pieces = this.pieces(text);
    const starts = new Array<number>(pieces.length + 1);
    const suffix = new Array<number>(pieces.length + 1);
    let offset = 0;
    for (let i = 0; i < pieces.length; i++) {
      starts[i] = offset;
      offset += pieces[i].length;
    }
    starts[pieces.length] = offset;
    suffix[pieces.length] = 0;
    for (let i = pieces.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + this.pieceCount(pieces[i]);
    if (suffix[0] <= limit) return { start: 0, tokens: suffix[0] };
    // Smallest piece index whose suffix fits (suffix sums are non-increasing).
    let lo = 0;
    let hi = pieces.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (suffix[mid] <= limit) hi = mid;
      else lo = mid + 1;
    }
    let start = starts[lo];
    if (lo > 0) {
      // Try to start inside the previous piece. A partial piece can merge with what follows when it is
      // re-split (" _A" is two pieces, "_A" one), so the estimate recounts up to two pieces past it.
      const piece = pieces[lo - 1];
      const base = starts[lo - 1];
      const resync = Math.min(lo + 2, pieces.length);
      for (const b of codePointBoundaries(piece)) {
        if (b === 0 || b === piece.length) continue;
        if (this.count(text.slice(base + b, starts[resync])) + suffix[resync] <= limit) {
          start = base + b;
          break;
        }
      }
    }
    // Exact count of text.slice(pos): matching from any offset depends only on that offset (the pattern has
    // no look-behind), so re-match from `pos` until a match ends on a known piece boundary, then add the
    // known suffix sum from there. Verification costs a few pieces, not a pass over the text.
    const re = this.piecePattern;
    const countFrom = (pos: number): number => {
      re.lastIndex = pos;
      let n = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        if (m[0].length === 0) {
          re.lastIndex++;
          continue;
        }
        n += this.pieceCount(m[0]);
        const k = boundaryIndex(starts, m.index + m[0].length);
        if (k !== -1) return n + suffix[k];
      }
      return n;
    };
    // Step forward while it does not fit, then back while a longer suffix still does.
    let tokens = countFrom(start);
    while (start < text.length && tokens > limit) {
      start = nextCodePoint(text, start);
      tokens = countFrom(start);
    }
    for (let p = previousCodePoint(text, start); p >= 0 && start > 0; p = previousCodePoint(text, p)) {
      const longer = countFrom(p);
      if (longer > limit) break;
      start = p;
      tokens = longer;
      if (p === 0) break;
    }
    return { start, tokens: start >= text.length ? 0 : tokens };
  }

  /**
   * UTF-16 offset where the longest prefix of `text` that fits `limit` tokens ends (a code point
   * boundary). Binary search over code points, counting each candidate prefix.
   */
  fitPrefixEnd(text: string, limit: number): number {
    if (limit <= 0) return 0;
    if (this.count(text) <= limit) return text.length;
    const bounds = codePointBoundaries(text);
    let lo = 0;
    let hi = bounds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.encode(text.slice(0, bounds[mid])).length <= limit) lo = mid;
      else hi = mid - 1;
    }
    return bounds[lo];
  }
}

/** `text` cut into chunks of `size` characters at most, never between the halves of a surrogate pair. */
function chunksOf(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + size);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end--;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** Index of `offset` in the sorted `starts`, or -1. */
function boundaryIndex(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] === offset) return mid;
    if (starts[mid] < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** UTF-16 offsets of every code point boundary, including 0 and the length. */
export function codePointBoundaries(text: string): number[] {
  const out = [0];
  let i = 0;
  while (i < text.length) {
    i = nextCodePoint(text, i);
    out.push(i);
  }
  return out;
}

function previousCodePoint(text: string, i: number): number {
  if (i <= 0) return -1;
  const c = text.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
    const h = text.charCodeAt(i - 2);
    if (h >= 0xd800 && h <= 0xdbff) return i - 2;
  }
  return i - 1;
}

function nextCodePoint(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return i + 2;
  }
  return i + 1;
}

const tokenizers = new Map<EncodingName, Tokenizer>();

/** The shared tokenizer for a model or encoding name; built on first use. */
export function getTokenizer(modelOrEncoding: string): Tokenizer {
  return tokenizerFor(resolveEncoding(modelOrEncoding));
}

export function tokenizerFor(choice: EncodingChoice): Tokenizer {
  let t = tokenizers.get(choice.encoding);
  if (!t) {
    t = new Tokenizer(choice.encoding);
    tokenizers.set(choice.encoding, t);
  }
  return t;
}
