import { isPlainObject } from '../../message.js';
import type { Codec } from '../codec.js';
import { sentText, type MessageView } from '../model.js';
import { atLineStart, localStamp, spanOf, splitLines } from './lines.js';
import { isAiderInputName } from './names.js';

/**
 * Aider's input history (`.aider.input.history`): prompt_toolkit's FileHistory, what the up arrow recalls.
 * Each prompt is appended as `\n# 2025-03-14 09:12:07.123456\n` and one `+line` per line of it. prompt_toolkit
 * reads it back by the `+` lines alone: a run of them is one prompt (the `+` off each, the last line break
 * dropped); comment and blank lines only end a run. Lines are split at "\n" only and a "\r" is the prompt's
 * own, as prompt_toolkit reads the file (in binary). A prompt is always written with its final line break: a
 * last line without one loses its last character to prompt_toolkit's reading.
 */
interface InputRecord {
  text: string;
  /** The time of its `# ` comment line, as written. */
  timestamp?: string;
}

interface EntrySpan {
  /** Where the lines before its run begin (the blank line and the `# time` comment). */
  start: number;
  runStart: number;
  end: number;
  text: string;
  timestamp?: string;
}

interface InputBaseline {
  spans: WeakMap<object, EntrySpan>;
  /** Where the lines after the last prompt begin. */
  tail: number;
}

const COMMENT = /^# (.*)$/;

function parseInput(text: string): { records: InputRecord[]; baseline: InputBaseline } {
  const lines = splitLines(text, false);
  const spans = new WeakMap<object, EntrySpan>();
  const records: InputRecord[] = [];
  let lead = 0;
  let timestamp: string | undefined;
  for (let i = 0; i < lines.length; ) {
    if (!lines[i].text.startsWith('+')) {
      const m = COMMENT.exec(lines[i].text);
      if (m) timestamp = m[1].trim();
      i++;
      continue;
    }
    const first = i;
    while (i < lines.length && lines[i].text.startsWith('+')) i++;
    const end = lines[i - 1].end;
    const joined = lines
      .slice(first, i)
      .map((l) => text.slice(l.start + 1, l.end))
      .join('');
    // As prompt_toolkit reads it: the last character dropped (the line break, but for a last line without one).
    const record: InputRecord = { text: joined.slice(0, -1), ...(timestamp !== undefined ? { timestamp } : {}) };
    spans.set(record, { start: lead, runStart: lines[first].start, end, text: record.text, timestamp });
    records.push(record);
    lead = end;
    timestamp = undefined;
  }
  return { records, baseline: { spans, tail: lead } };
}

const run = (text: string) => text.split('\n').map((l) => `+${l}\n`).join('');

function asRecord(record: unknown): InputRecord {
  const r = isPlainObject(record) ? record : {};
  return { text: typeof r.text === 'string' ? r.text : '', ...(typeof r.timestamp === 'string' ? { timestamp: r.timestamp } : {}) };
}

export const aiderInputHistory: Codec = {
  id: 'aider-input',
  label: 'Aider input history (.aider.input.history)',
  tool: 'Aider',
  // What was typed at the prompt, beside the chat that holds the same prompts with their answers: searched, not a session.
  companion: true,
  // Line-based text, not Markdown; the nearest of the syntaxes a codec declares.
  syntax: 'markdown',
  extensions: ['.history'],
  capabilities: { conversations: 'one', toolCalls: false, reasoning: false, otherRecords: false, timestamps: true },
  sniff(head, name) {
    if (isAiderInputName(name)) return 60;
    return /^\s*# \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?\r?\n\+/.test(head) ? 40 : 0;
  },
  // Every text is a history to prompt_toolkit (lines that are not `+` lines are passed over).
  parse(text) {
    const { records, baseline } = parseInput(text);
    return { codec: 'aider-input', conversations: [{ records }], otherRecords: 0, text, baseline };
  },
  serialize(doc, conversations) {
    const b = doc.baseline as InputBaseline;
    let out = '';
    for (const record of conversations[0] ?? []) {
      const r = asRecord(record);
      const span = spanOf(b.spans, record);
      out = atLineStart(out, '\n');
      if (span && span.text === r.text && span.timestamp === r.timestamp) out += doc.text.slice(span.start, span.end);
      // An edit rewrites the `+` lines and keeps the comment before them.
      else if (span && span.timestamp === r.timestamp) out += doc.text.slice(span.start, span.runStart) + run(r.text);
      else out += `\n# ${r.timestamp ?? localStamp(new Date(), true)}\n${run(r.text)}`;
    }
    const tail = doc.text.slice(b.tail);
    return tail === '' ? out : atLineStart(out, '\n') + tail;
  },
  view(record): MessageView {
    const r = asRecord(record);
    // prompt_toolkit writes Python's str(datetime.now()), local time: read as ISO without a zone.
    const ts = r.timestamp?.replace(/^(\d{4}-\d\d-\d\d) (\d\d:\d\d)/, '$1T$2');
    return { role: 'user', normalRole: 'user', parts: r.text !== '' ? [{ kind: 'text', text: r.text }] : [], timestamp: ts };
  },
  fromView(view) {
    // The time goes on the comment line before the prompt (one line, as it reads back).
    const timestamp = (view.timestamp ?? localStamp(new Date(), true)).replace(/\s+/g, ' ').trim();
    return { text: sentText(view), timestamp } satisfies InputRecord;
  },
  loses(view) {
    const lost: string[] = [];
    if (view.normalRole !== 'user') lost.push('who wrote each message (an input history holds what was typed: every message is written as a prompt)');
    if (view.parts.some((p) => p.kind === 'reasoning')) lost.push('reasoning');
    if (view.parts.some((p) => p.kind === 'tool-call' || p.kind === 'tool-result')) lost.push('tool calls and results (written as text)');
    if (view.parts.some((p) => p.kind === 'image' || p.kind === 'file')) lost.push('images and files');
    return lost;
  },
  withText: (record, text) => (isPlainObject(record) ? { ...record, text } : undefined),
  rawText(doc, _c, record) {
    const span = isPlainObject(record) ? (doc.baseline as InputBaseline).spans.get(record) : undefined;
    return span ? doc.text.slice(span.start, span.end) : undefined;
  },
};
