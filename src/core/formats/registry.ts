import { extname } from 'node:path';
import { NotThisFormat, type Codec, type ConversationDocument, type Quoted } from './codec.js';
import { ConversationFileError } from './errors.js';
import { syntaxError } from './json.js';
import { markDerived } from '../message.js';
import { withUnreadPart } from './unread.js';
import { BUILT_IN_EXTENSIONS, BUILT_IN_LOADERS } from './built-in.js';
import type { Utf8Text } from './syntax/utf8-text.js';

const codecs: Codec[] = [];
// Asked once per file by a listing of thousands: kept until a codec is added.
let extensions: Set<string> | undefined;

/** Adds a codec (the built-in ones register themselves in formats/all.ts); a later one with the same id replaces it. */
export function registerCodec(codec: Codec): void {
  prepared(codec);
  extensions = undefined;
  marks = undefined;
  const i = codecs.findIndex((c) => c.id === codec.id);
  if (i === -1) codecs.push(codec);
  else codecs[i] = codec;
}

// A codec is made ready once, whether it is registered or loaded by itself first (loadCodec) and registered after.
const ready = new WeakSet<Codec>();

function prepared(codec: Codec): Codec {
  if (ready.has(codec)) return codec;
  ready.add(codec);
  // An edited record is derived from the one it edits: writers use that to keep what the edit did not change.
  const withText = codec.withText;
  codec.withText = (record, text) => {
    const next = withText(record, text);
    if (next !== null && typeof next === 'object' && record !== null && typeof record === 'object') markDerived(next, record);
    return next;
  };
  // Whatever shape a record has, it never reads as an empty message while it holds words.
  const view = codec.view;
  if (!(view as { unreadGuarded?: true }).unreadGuarded) {
    const guarded = (record: unknown) => withUnreadPart(record, view(record));
    (guarded as { unreadGuarded?: true }).unreadGuarded = true;
    codec.view = guarded;
  }
  return codec;
}

// Built-in codecs loaded one by one, not (yet) registered: they read records of a known format, never detect one.
const loaded = new Map<string, Codec>();

/**
 * The codec of this id, loading a built-in one by itself where formats/all.ts was not loaded: what a search from
 * the catalog needs to read a hit's line, without every other format's reader.
 */
export async function loadCodec(id: string): Promise<Codec | undefined> {
  const known = codecById(id);
  if (known) return known;
  const load = Object.hasOwn(BUILT_IN_LOADERS, id) ? BUILT_IN_LOADERS[id] : undefined;
  if (!load) return undefined;
  const codec = prepared(await load());
  loaded.set(id, codec);
  return codec;
}

export function listCodecs(): readonly Codec[] {
  return codecs;
}

export function codecById(id: string): Codec | undefined {
  return codecs.find((c) => c.id === id) ?? loaded.get(id);
}

/** Every extension some codec reads (lower case, with the dot). */
export function conversationExtensions(): string[] {
  return [...extensionSet()];
}

/** Whether some codec reads files of this extension (lower case, with the dot). */
export function isConversationExtension(ext: string): boolean {
  return extensionSet().has(ext);
}

// The built-in formats' extensions are known before their codecs load: a listing walks for them all the same.
function extensionSet(): Set<string> {
  return (extensions ??= new Set([...BUILT_IN_EXTENSIONS, ...codecs.flatMap((c) => c.extensions)]));
}

// Every codec's sniffNeeds and sniffMarks as one pattern: a quote, one of them, and a quote after it (looked
// ahead, not taken, so that a closing quote can open the next string).
let marks: { pattern: RegExp; words: Set<string> } | undefined;

/** Which of the codecs' sniffNeeds and sniffMarks the head holds in quotes: one pass for all of them. */
function quotedWordsIn(head: string): { found: Set<string>; words: Set<string> } {
  if (!marks) {
    const words = new Set(codecs.flatMap((c) => [...(c.sniffNeeds ?? []), ...(c.sniffMarks ?? [])]));
    const all = [...words].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    marks = { pattern: new RegExp(`"(${all.join('|') || '(?!)'})(?=")`, 'g'), words };
  }
  const found = new Set<string>();
  const pattern = marks.pattern;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(head); m; m = pattern.exec(head)) found.add(m[1]);
  return { found, words: marks.words };
}

/**
 * The codecs that may read a file of this name, most specific first for this head of the file. `gated`: a codec
 * whose sniffNeeds the head lacks is not asked, and sniffers' marks come from one pass over the head (false
 * only to test that neither changes the answer: each sniffer then searches the head itself).
 */
export function candidates(name: string, head: string, gated = true): Codec[] {
  const ext = extname(name).toLowerCase();
  // Asked for each of a listing's thousands of files: one pass, no intermediate lists.
  const scored: { c: Codec; score: number }[] = [];
  let seen: { found: Set<string>; words: Set<string> } | undefined;
  const quoted: Quoted | undefined = gated ? (word) => ((seen ??= quotedWordsIn(head)).words.has(word) ? seen.found.has(word) : head.includes(`"${word}"`)) : undefined;
  for (const c of codecs) {
    if (!c.extensions.includes(ext)) continue;
    if (gated && c.sniffNeeds) {
      seen ??= quotedWordsIn(head);
      if (!c.sniffNeeds.some((k) => seen!.found.has(k))) continue;
    }
    const score = c.sniff(head, name, quoted);
    if (score > 0) scored.push({ c, score });
  }
  if (scored.length > 1) scored.sort((a, b) => b.score - a.score);
  return scored.map((x) => x.c);
}

export interface ParsedFile {
  codec: Codec;
  doc: ConversationDocument;
}

/**
 * Reads `source` (text, or bytes a codec may read a line at a time) with `formatId`, or with the most specific codec that accepts it. A codec that finds valid
 * syntax of another format steps aside for the next; a syntax error is reported with its position.
 */
export function parseWithCodecs(source: string | Utf8Text, file: string, formatId?: string, name = file): ParsedFile {
  // Bytes are read by a codec that reads them a line at a time; every other use decodes the whole text.
  const whole = () => (typeof source === 'string' ? source : source.text());
  const parse = (codec: Codec) => (typeof source !== 'string' && codec.parseBytes ? codec.parseBytes(source, file) : codec.parse(whole(), file));
  if (formatId !== undefined) {
    const codec = codecById(formatId);
    if (!codec) throw new ConversationFileError(file, `unknown format "${formatId}" (known: ${codecs.map((c) => c.id).join(', ')})`);
    try {
      return { codec, doc: parse(codec) };
    } catch (e) {
      if (e instanceof NotThisFormat) throw new ConversationFileError(file, `not ${codec.label}: ${e.message}`);
      throw e;
    }
  }
  const ext = extname(name).toLowerCase();
  const head = typeof source === 'string' ? source.slice(0, 65536) : source.head(65536);
  let list = candidates(name, head);
  // Keys spelled with escapes ("r\u006fle") are the same keys to JSON: sniffed again as JSON.parse reads them.
  if (list.length === 0 && head.includes('\\u')) list = candidates(name, unescapedHead(whole(), ext));
  if (list.length === 0) {
    const text = whole();
    const known = conversationExtensions();
    if (!known.includes(ext)) throw new ConversationFileError(file, `unsupported file type "${ext || '(no extension)'}": expected ${known.join(', ')}`);
    const labels = codecs.filter((c) => c.extensions.includes(ext)).map((c) => c.label);
    // JSON that does not parse is said as such, where it breaks: no format is the matter with it.
    if (ext === '.json' && /^\s*[[{]/.test(text)) {
      try {
        JSON.parse(text);
      } catch (e) {
        throw syntaxError(text, file, (e as Error).message);
      }
    }
    throw new ConversationFileError(file, `not a conversation format this tool knows${describeFound(text, ext)}; expected one of: ${labels.join(', ')}`, undefined, describeFound(text, ext) !== '');
  }
  let first: { codec: Codec; error: NotThisFormat } | undefined;
  for (const codec of list) {
    try {
      return { codec, doc: parse(codec) };
    } catch (e) {
      if (!(e instanceof NotThisFormat)) throw e;
      first ??= { codec, error: e };
    }
  }
  // The most likely format says best what is wrong, and where; the others tried are named, and what the file holds.
  const others = list.filter((c) => c !== first!.codec).map((c) => c.label);
  const tried = others.length > 0 ? `; also tried: ${others.join(', ')}` : '';
  throw new ConversationFileError(file, `${first!.error.message} (reading it as ${first!.codec.label}${tried})${describeFound(whole(), ext)}`, first!.error.position, true);
}

/** A JSON or JSONL head as JSON.stringify writes what JSON.parse reads there ('' where it does not parse). */
function unescapedHead(text: string, ext: string): string {
  try {
    if (ext === '.json') return JSON.stringify(JSON.parse(text), null, 2).slice(0, 65536);
    if (ext !== '.jsonl') return '';
    // Line by line up to 64 KB of it: a log of 100 MB is not split whole to be refused.
    const lines: string[] = [];
    let length = 0;
    for (let start = 0; start < text.length && length < 65536; ) {
      const nl = text.indexOf('\n', start);
      const line = text.slice(start, nl === -1 ? text.length : nl);
      start = nl === -1 ? text.length : nl + 1;
      if (line.trim() === '') continue;
      lines.push(JSON.stringify(JSON.parse(line)));
      length += lines[lines.length - 1].length;
    }
    return lines.join('\n').slice(0, 65536);
  } catch {
    return '';
  }
}

/** A few words on what a JSON file holds, for the error that says it is no format known here. */
function describeFound(text: string, ext: string): string {
  if (ext !== '.json' && ext !== '.jsonl') return '';
  try {
    const line = ext === '.jsonl' ? text.split('\n').find((l) => l.trim() !== '') ?? '' : text;
    const v = JSON.parse(line) as unknown;
    if (Array.isArray(v)) {
      const el = v.find((x) => x !== null && typeof x === 'object' && !Array.isArray(x)) as Record<string, unknown> | undefined;
      return el ? ` (found a list of objects with keys: ${Object.keys(el).slice(0, 6).join(', ')})` : ` (found a list of ${v.length} values)`;
    }
    if (v !== null && typeof v === 'object') return ` (found ${ext === '.jsonl' ? 'lines holding ' : ''}an object with keys: ${Object.keys(v).slice(0, 6).join(', ') || '(none)'})`;
    return ` (found ${typeof v})`;
  } catch {
    return '';
  }
}
