import { isPlainObject } from '../../message.js';
import type { Codec } from '../codec.js';
import { sentText, type MessageView, type ReportedUsage } from '../model.js';
import { atLineStart, endsBlank, localStamp, newlineOf, spanOf, splitLines, type Line } from './lines.js';
import { SESSION_HEADER, isAiderChatName, looksLikeAiderChat } from './names.js';

/**
 * Aider's chat history (`.aider.chat.history.md`), as aider/io.py appends to it: each run begins with
 * `# aider chat started at YYYY-MM-DD HH:MM:SS`; what the user typed is written as `#### ` lines (each line of a
 * prompt one, ended by a Markdown hard break of two spaces; an empty prompt `#### <blank>`); the model's reply
 * as plain Markdown after a blank line; everything Aider itself says (the version and models at start, "Added
 * foo.py to the chat", "Tokens: … Cost: …", "Applied edit", commits, a confirmation and its answer, a
 * command's output) as `> ` lines.
 *
 * The blocks are told apart line by line, as Aider's own reader (`split_chat_history_markdown`, behind
 * `--restore-chat-history`) tells them: a `#### ` line is the user's, a `> ` line Aider's, anything else the
 * reply's, whatever fence it is in. Two things read closer to what Aider meant: consecutive `#### ` lines are
 * one prompt, and lines right after a `> ` line up to a blank line belong to it (Aider writes a multi-line
 * output, `/git log` say, with `> ` before its first line only: Markdown's lazy continuation).
 *
 * The `> ` blocks are shown as the CLI's own notices (role `tool`, as Aider's reader names them, marked meta,
 * normal role `other`) rather than as tool results: no model asked for them, no call id links them, and they
 * are mostly status lines; a conversion writes them where a format keeps such notes (a user turn), never as a
 * tool result without its call, which strict formats refuse.
 */
export type AiderRole = 'user' | 'assistant' | 'tool';

export interface AiderRecord {
  role: AiderRole;
  text: string;
}

interface RecordSpan {
  start: number;
  /** Where the record's own lines end (its line break included); blank lines after it up to `end` follow it. */
  contentEnd: number;
  end: number;
  role: AiderRole;
  text: string;
  /** Its last line ends with a line break (not so only at the end of a file without a final one). */
  finalBreak: boolean;
}

interface AiderBaseline {
  /** Blank lines before the first session. */
  prefix: number;
  /** Each session's header line and the blank lines after it; start === end for text before any header. */
  sessions: Array<{ start: number; end: number }>;
  spans: WeakMap<object, RecordSpan>;
  newline: string;
}

const USER = /^####(?: |$)/;
const QUOTE = /^>(?: |$)/;
const BLANK = /^[ \t]*$/;
/**
 * Aider's format cannot say where one reply ends and the next begins, nor hold a reply that starts or ends
 * with blank lines, or has a line that reads as a prompt or a notice. A new reply right after another is
 * written after a `<!-- conversation-inspector: reply -->` line (invisible in Markdown); a text that lines
 * cannot hold exactly is written whole as a JSON string inside that comment. In a reply's text, a line that
 * would read as structure gets a backslash before it (`\#### `, `\> `, as Markdown escapes them), taken off on
 * reading.
 */
const MARKER = '<!-- conversation-inspector: reply';
const MARK_LINE = `${MARKER} -->`;
const MARKED = /^<!-- conversation-inspector: reply(?: (".*"))? -->$/;
const STRUCTURAL = /^\\*(?:####(?: |$)|>(?: |$)|# aider chat started at|<!-- conversation-inspector: reply)/;

type Kind = 'header' | 'user' | 'quote' | 'mark' | 'exact' | 'blank' | 'other';

function kindOf(t: string): Kind {
  if (t.startsWith(SESSION_HEADER)) return 'header';
  if (USER.test(t)) return 'user';
  if (QUOTE.test(t)) return 'quote';
  if (t.startsWith(MARKER)) {
    const m = MARKED.exec(t);
    if (m && m[1] === undefined) return 'mark';
    if (m && exactText(m[1]) !== undefined) return 'exact';
  }
  return BLANK.test(t) ? 'blank' : 'other';
}

function exactText(json: string): string | undefined {
  try {
    const v = JSON.parse(json) as unknown;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A hard break's two spaces off the end of a line. */
const unbreak = (s: string) => (s.endsWith('  ') ? s.slice(0, -2) : s);

function userText(lines: readonly Line[]): string {
  // Aider writes an empty prompt as `<blank>` (with its hard break); a typed "<blank>" is written without one.
  if (lines.length === 1 && lines[0].text === '#### <blank>  ') return '';
  // Aider strips the end of a prompt's last line before its hard break: one of white space alone is `####  `, no
  // space after the marks, and holds nothing.
  return lines.map((l) => unbreak(l.text.slice(4)).replace(/^ /, '')).join('\n');
}

function noticeText(lines: readonly Line[]): string {
  return lines
    .map((l) => {
      if (!QUOTE.test(l.text)) return unbreak(l.text);
      const rest = unbreak(l.text.slice(1));
      return rest.startsWith(' ') ? rest.slice(1) : rest;
    })
    .join('\n');
}

const unescapeLine = (t: string) => (t.startsWith('\\') && STRUCTURAL.test(t) ? t.slice(1) : t);
const escapeLine = (t: string) => (STRUCTURAL.test(t) ? `\\${t}` : t);

/** Whether a reply's text reads back exactly from its lines in a file with `nl` line breaks. */
function plainReply(text: string, nl: string): boolean {
  if (text === '') return false;
  const lines = text.split('\n');
  if (BLANK.test(lines[0]) || BLANK.test(lines[lines.length - 1])) return false;
  // A "\r" before a break is part of the break when read; a file of "\r\n" breaks keeps it (one "\r" is taken).
  return nl === '\r\n' || !lines.some((l) => l.endsWith('\r'));
}

/** The JSON string of a text, safe in an HTML comment on one line. */
const commentJson = (text: string) => JSON.stringify(text).replace(/[<>\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A record's own lines, each ended by `nl`. */
function render(r: AiderRecord, nl: string): string {
  const lines = r.text.split('\n');
  switch (r.role) {
    case 'user':
      if (r.text === '') return `#### <blank>  ${nl}`;
      if (r.text === '<blank>') return `#### <blank>${nl}`;
      return lines.map((l) => `#### ${l}  ${nl}`).join('');
    case 'tool':
      return lines.map((l) => `> ${l}  ${nl}`).join('');
    case 'assistant':
      if (!plainReply(r.text, nl)) return `${MARKER} ${commentJson(r.text)} -->${nl}`;
      return lines.map((l) => escapeLine(l) + nl).join('');
  }
}

function firstLine(piece: string): string {
  const e = piece.indexOf('\n');
  const line = e === -1 ? piece : piece.slice(0, e);
  return e > 0 && line.endsWith('\r') ? line.slice(0, -1) : line;
}

function asRecord(record: unknown): AiderRecord {
  const r = isPlainObject(record) ? record : {};
  const role: AiderRole = r.role === 'user' || r.role === 'tool' ? r.role : 'assistant';
  return { role, text: typeof r.text === 'string' ? r.text : '' };
}

/** The model a session's opening notice names (`Model: openrouter/openai/gpt-4o-mini with diff edit format`, or `Main model: …`). */
function modelNamed(notice: string): { model?: string } {
  const m = /^(?:Main )?[Mm]odel: (\S+)/m.exec(notice);
  return m ? { model: m[1] } : {};
}

/** When a session began, from its header (`aider chat started at 2025-12-03 10:11:12`, the machine's local time). */
function startedAtOf(header: string): string | undefined {
  const m = /started at (\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)/.exec(header);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const at = new Date(y, mo - 1, d, h, mi, s);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/**
 * What Aider reports after a reply (base_coder.py): `Tokens: 2.4k sent, 1.1k cache write, 9.8k cache hit, 104
 * received.`, each count above 999 rounded to a tenth or a whole thousand. "Sent" is the whole prompt, its cache
 * reads and writes included (Aider adds the writes to what the provider counts), so the input not cached is what
 * is left of it. The figures of every send behind the one reply (a reflection sends again) added up.
 */
const TOKENS_LINE = /^Tokens: (.*?) received\./gm;
const COUNT = /^(\d[\d,]*(?:\.\d+)?)([kM]?)(?: (sent|cache write|cache hit))?$/;

function countOf(figure: string, unit: string): number {
  const n = Number(figure.replace(/,/g, ''));
  return Math.round(unit === 'k' ? n * 1e3 : unit === 'M' ? n * 1e6 : n);
}

/** The usage a notice reports, by the model the session runs (its opening notice names it). */
export function reportedTokens(notice: string, model: string | undefined): ReportedUsage | undefined {
  let usage: ReportedUsage | undefined;
  let calls = 0;
  for (const m of notice.matchAll(TOKENS_LINE)) {
    const figures: Record<string, number> = {};
    const pieces = m[1].split(', ');
    const ok = pieces.every((piece, k) => {
      const c = COUNT.exec(piece);
      if (!c || (c[3] === undefined) !== (k === pieces.length - 1)) return false;
      figures[c[3] ?? 'received'] = countOf(c[1], c[2]);
      return true;
    });
    if (!ok || figures.sent === undefined) continue;
    const cacheRead = figures['cache hit'] ?? 0;
    const cacheWrite = figures['cache write'] ?? 0;
    calls++;
    usage = {
      input: (usage?.input ?? 0) + Math.max(0, figures.sent - cacheRead - cacheWrite),
      output: (usage?.output ?? 0) + figures.received,
      cacheRead: (usage?.cacheRead ?? 0) + cacheRead,
      cacheWrite: (usage?.cacheWrite ?? 0) + cacheWrite,
      ...(model ? { model } : {}),
    };
  }
  if (usage && calls > 1) usage.calls = calls;
  return usage;
}

/** Reported usage of the records of files read here, on the reply it reports (else on its notice). */
const usageOf = new WeakMap<object, ReportedUsage>();

interface Parsed {
  conversations: Array<{ title?: string; records: AiderRecord[]; meta?: { startedAt: string } }>;
  baseline: AiderBaseline;
}

function parseHistory(text: string): Parsed {
  const lines = splitLines(text, true);
  const kinds = lines.map((l) => kindOf(l.text));
  const n = lines.length;
  const startOf = (i: number) => (i < n ? lines[i].start : text.length);
  const skipBlank = (i: number) => {
    while (i < n && kinds[i] === 'blank') i++;
    return i;
  };
  const spans = new WeakMap<object, RecordSpan>();
  const sessions: AiderBaseline['sessions'] = [];
  const conversations: Parsed['conversations'] = [];
  let i = skipBlank(0);
  const prefix = startOf(i);
  while (i < n) {
    // A session: its header (none for text before the first one), then its records up to the next header.
    const records: AiderRecord[] = [];
    let model: string | undefined;
    if (kinds[i] === 'header') {
      const h = i;
      i = skipBlank(i + 1);
      sessions.push({ start: lines[h].start, end: startOf(i) });
      const title = lines[h].text.slice(2).trim();
      const startedAt = startedAtOf(title);
      conversations.push({ title, records, ...(startedAt ? { meta: { startedAt } } : {}) });
    } else {
      sessions.push({ start: lines[i].start, end: lines[i].start });
      conversations.push({ records });
    }
    while (i < n && kinds[i] !== 'header') {
      const first = i;
      let role: AiderRole;
      let body: string;
      let last: number;
      switch (kinds[i]) {
        case 'user':
          while (i < n && kinds[i] === 'user') i++;
          role = 'user';
          last = i - 1;
          body = userText(lines.slice(first, i));
          break;
        case 'quote':
          i++;
          while (i < n && (kinds[i] === 'quote' || kinds[i] === 'other')) i++;
          role = 'tool';
          last = i - 1;
          body = noticeText(lines.slice(first, i));
          break;
        case 'exact':
          role = 'assistant';
          last = i;
          body = exactText(MARKED.exec(lines[i].text)![1])!;
          i++;
          break;
        default: {
          // A reply: up to the next prompt, notice, header or marker; blank lines at its end follow it.
          const from = kinds[i] === 'mark' ? i + 1 : i;
          i = from;
          while (i < n && (kinds[i] === 'other' || kinds[i] === 'blank')) i++;
          last = i - 1;
          while (last >= from && kinds[last] === 'blank') last--;
          role = 'assistant';
          body = lines
            .slice(from, last + 1)
            .map((l) => unescapeLine(l.text))
            .join('\n');
          if (last < first) last = first;
        }
      }
      i = skipBlank(last + 1);
      const record: AiderRecord = { role, text: body };
      if (role === 'tool') {
        model = modelNamed(body).model ?? model;
        const usage = body.includes('Tokens: ') ? reportedTokens(body, model) : undefined;
        if (usage) {
          const reply = records.findLast((r) => r.role !== 'tool');
          usageOf.set(reply?.role === 'assistant' ? reply : record, usage);
        }
      }
      const contentEnd = lines[last].end;
      spans.set(record, { start: lines[first].start, contentEnd, end: startOf(i), role, text: body, finalBreak: text[contentEnd - 1] === '\n' });
      records.push(record);
    }
  }
  return { conversations, baseline: { prefix, sessions, spans, newline: newlineOf(text) } };
}

export const aiderChatHistory: Codec = {
  id: 'aider-chat',
  label: 'Aider chat history (.aider.chat.history.md)',
  tool: 'Aider',
  syntax: 'markdown',
  extensions: ['.md'],
  capabilities: { conversations: 'many', toolCalls: false, reasoning: false, otherRecords: false, timestamps: false },
  sniff(head, name) {
    if (isAiderChatName(name)) return 60;
    return looksLikeAiderChat(head) ? 55 : 0;
  },
  // Any text is Markdown: what precedes the first session header reads as a session without one.
  parse(text) {
    const { conversations, baseline } = parseHistory(text);
    return { codec: 'aider-chat', conversations, otherRecords: 0, text, baseline };
  },
  serialize(doc, conversations) {
    const b = doc.baseline as AiderBaseline;
    const nl = b.newline;
    let out = doc.text.slice(0, b.prefix);
    conversations.forEach((records, ci) => {
      const session = b.sessions[ci];
      if (session === undefined) {
        // A new session, as Aider starts one: a blank line, the header, a blank line.
        out = atLineStart(out, nl);
        if (out === '' || !endsBlank(out)) out += nl;
        out += `${SESSION_HEADER} ${localStamp()}${nl}${nl}`;
      } else if (session.end > session.start) out = atLineStart(out, nl) + doc.text.slice(session.start, session.end);
      // What the last record leaves open: the lines a prompt, a notice or a reply would take in after it.
      let open: 'user' | 'notice' | 'reply' | undefined;
      for (const record of records) {
        const r = asRecord(record);
        const span = spanOf(b.spans, record);
        let piece: string;
        if (span && span.role === r.role && span.text === r.text) piece = doc.text.slice(span.start, span.end);
        else if (span) {
          // An edit rewrites the record's own lines and keeps the blank lines after it.
          const own = render(r, nl);
          piece = (span.finalBreak ? own : own.slice(0, -nl.length)) + doc.text.slice(span.contentEnd, span.end);
        } else piece = render(r, nl) + nl;
        const first = kindOf(firstLine(piece));
        out = atLineStart(out, nl);
        // Blocks that would run into the one before are kept apart: two prompts in a row, or a notice and the
        // lines after it, by a blank line; a reply and the reply before it, by the marker.
        if (open === 'reply' && first === 'other') out += (endsBlank(out) ? '' : nl) + MARK_LINE + nl;
        else if (!endsBlank(out) && ((open === 'user' && first === 'user') || (open === 'notice' && (first === 'quote' || first === 'other')))) out += nl;
        out += piece;
        open = r.role === 'user' ? 'user' : r.role === 'tool' ? 'notice' : first === 'exact' ? undefined : 'reply';
      }
    });
    return out;
  },
  view(record): MessageView {
    const r = asRecord(record);
    return {
      role: r.role,
      normalRole: r.role === 'tool' ? 'other' : r.role,
      parts: r.text !== '' ? [{ kind: 'text', text: r.text }] : [],
      meta: r.role === 'tool' || undefined,
      ...(r.role === 'tool' ? modelNamed(r.text) : {}),
      ...(isPlainObject(record) && usageOf.has(record) ? { usage: usageOf.get(record) } : {}),
    };
  },
  fromView(view) {
    // What the user typed is a prompt, the model's turn a reply; anything else (a system prompt, a tool's
    // output, a notice) is written as Aider writes what is neither: a `> ` block.
    const role: AiderRole = view.normalRole === 'user' ? 'user' : view.normalRole === 'assistant' ? 'assistant' : 'tool';
    return { role, text: sentText(view) } satisfies AiderRecord;
  },
  loses(view) {
    const lost: string[] = [];
    if (view.parts.some((p) => p.kind === 'reasoning')) lost.push('reasoning (an Aider history has no place for it)');
    if (view.parts.some((p) => p.kind === 'tool-call' || p.kind === 'tool-result')) lost.push('tool calls and results (written as text)');
    if (view.parts.some((p) => p.kind === 'image' || p.kind === 'file')) lost.push('images and files');
    if (view.normalRole === 'system') lost.push('system prompts (written as `>` notices)');
    if (view.timestamp) lost.push('timestamps (an Aider session has only its start time)');
    return lost;
  },
  withText: (record, text) => (isPlainObject(record) ? { ...record, text } : undefined),
  rawText(doc, _c, record) {
    const span = isPlainObject(record) ? (doc.baseline as AiderBaseline).spans.get(record) : undefined;
    return span ? doc.text.slice(span.start, span.end) : undefined;
  },
};
