import type { MessageView } from '../../../src/core/formats/model.js';
import { localCommandText } from '../../../src/core/formats/claude-code/local-commands.js';
import { inlineThinking } from '../../../src/core/util/inline-thinking.js';
import { withoutTerminalCodes } from '../../../src/core/util/terminal-codes.js';

/** How much of one message the detail pane is sent at first: a message of many megabytes waits for "Show all". */
export const SHOW_LIMIT = 256 * 1024;

const cut = (s: string) => (s.length > SHOW_LIMIT ? s.slice(0, SHOW_LIMIT) : s);

/** A value with every string longer than the limit cut to it (records, parts). */
function cutStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cut(value);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = cutStrings(v, depth + 1);
  return out;
}

export interface ShownMessage {
  message: Record<string, unknown>;
  view: MessageView;
  text: string;
  raw: string;
  /** The full sizes, when what is sent is cut. */
  truncated?: { text: number; raw: number };
}

/**
 * A view as a reader is sent it: signatures of signed reasoning are the provider's, not the reader's; signed
 * thinking with no text is said as such (Claude Code keeps only the signature of thinking it was not shown).
 */
function readersView<V extends MessageView>(view: V): V {
  if (!view.parts.some((p) => p.kind === 'reasoning' && p.signed !== undefined)) return view;
  return { ...view, parts: view.parts.map((p) => (p.kind === 'reasoning' && p.signed !== undefined ? (({ signed: _s, ...rest }) => (rest.text === '' ? { ...rest, unkept: true } : rest))(p) : p)) };
}

/** A message as the detail pane is first sent it: whole, or (past the limit) with its long strings cut. */
export function shownMessage(m: ShownMessage, full: boolean): ShownMessage {
  if (full || (m.raw.length <= SHOW_LIMIT && m.text.length <= SHOW_LIMIT)) return { ...m, view: readersView(m.view) };
  return {
    message: cutStrings(m.message) as Record<string, unknown>,
    view: readersView(cutStrings(m.view) as MessageView),
    text: cut(m.text),
    raw: cut(m.raw),
    truncated: { text: m.text.length, raw: m.raw.length },
  };
}

/**
 * How much of each string of a message the transcript is sent: a screen of reading and more, not a file an agent
 * read whole (a tool result of megabytes is folded there anyway; the detail pane and "Show all" have the rest).
 */
export const TRANSCRIPT_LIMIT = 32 * 1024;

/** A message as the transcript is sent it: each string past the limit cut, `cut` the length of the longest. */
export function transcriptView(view: MessageView, limit = TRANSCRIPT_LIMIT): MessageView & { cut?: number } {
  let longest = 0;
  const clip = (s: string) => {
    if (s.length <= limit) return s;
    longest = Math.max(longest, s.length);
    return s.slice(0, limit);
  };
  const parts = view.parts.map((p) => {
    switch (p.kind) {
      case 'text':
      case 'tool-result': {
        // A command's captured output is shown as its terminal showed it, without the codes that drew it; a
        // command typed at Claude Code's prompt as it was typed ("/model"), not as the tags it is kept in.
        const plain = withoutTerminalCodes(p.text);
        const text = (p.kind === 'text' ? localCommandText(plain) : undefined) ?? plain;
        return text.length > limit ? { ...p, text: clip(text) } : text === p.text ? p : { ...p, text };
      }
      case 'reasoning':
      case 'unknown':
        return p.text.length > limit ? { ...p, text: clip(p.text) } : p;
      case 'tool-call':
        return p.arguments.length > limit ? { ...p, arguments: clip(p.arguments) } : p;
      default:
        // An inline image's data is never shown: its kind and size say what it is.
        return p.ref.length > limit ? { ...p, ref: `${p.ref.slice(0, 64)}…` } : p;
    }
  });
  const out = readersView({ ...view, parts: view.normalRole === 'assistant' ? parts.flatMap(thinkingApart) : parts });
  return longest > 0 ? { ...out, cut: longest } : out;
}

/** An answer's text that opens with `<think>…</think>`: its reasoning folded as reasoning, the answer after it as text. */
function thinkingApart(p: MessageView['parts'][number]): MessageView['parts'] {
  if (p.kind !== 'text') return [p];
  const split = inlineThinking(p.text);
  if (!split) return [p];
  return [{ kind: 'reasoning', text: split.reasoning }, ...(split.answer ? [{ kind: 'text' as const, text: split.answer }] : [])];
}
