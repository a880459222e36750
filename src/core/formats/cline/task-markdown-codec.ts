import { isClineTaskName } from './task-names.js';
import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import type { MessageView, Part } from '../model.js';

/**
 * A Cline (and Roo Code, Kilo Code) task exported as Markdown: "Export task" writes `cline_task_<date>.md`
 * (`roo_task_…`, `kilo_code_task_…`) from the task's API history (src/integrations/misc/export-markdown.ts in
 * cline/cline): each message `**User:**` or `**Assistant:**`, a blank line, its content blocks joined by line
 * breaks, a blank line; messages joined by `---` lines. Blocks are written as text: a tool call as
 * `[Tool Use: name]` and its input's `Key: value` lines, a result as `[Tool]` (`[Tool (Error)]`) and its text,
 * an image as `[Image]`. Those markers are read back as calls, results and images; where a block ends is not
 * written, so a call or result runs to the next marker (a result stops at Cline's `<environment_details>`).
 */
interface TaskMessage {
  role: 'user' | 'assistant';
  /** The message's content as the file has it, between its header's blank line and the one before `---`. */
  content: string;
}

interface Baseline {
  spans: WeakMap<object, { start: number; end: number }>;
  /** Text before the first header (none in a file Cline wrote). */
  head: string;
}

const HEADER = /^\*\*(User|Assistant):\*\*\n\n/;
const SEPARATOR = '---\n\n';

const isName = isClineTaskName;

/** Splits the export into messages: a message ends at `\n\n---\n\n` followed by the next header. */
function split(text: string): { records: TaskMessage[]; spans: Array<{ start: number; end: number }>; head: string } {
  const first = text.search(/^\*\*(User|Assistant):\*\*\n\n/m);
  if (first === -1) return { records: [], spans: [], head: text };
  const records: TaskMessage[] = [];
  const spans: Array<{ start: number; end: number }> = [];
  let at = first;
  const boundary = /\n\n---\n\n(?=\*\*(User|Assistant):\*\*\n\n)/g;
  while (at < text.length) {
    const m = HEADER.exec(text.slice(at, at + 20));
    if (!m) break;
    boundary.lastIndex = at;
    const b = boundary.exec(text);
    const contentStart = at + m[0].length;
    const end = b ? b.index + 2 + SEPARATOR.length : text.length;
    const contentEnd = b ? b.index : text.endsWith('\n\n') && text.length - 2 >= contentStart ? text.length - 2 : text.length;
    records.push({ role: m[1] === 'User' ? 'user' : 'assistant', content: text.slice(contentStart, contentEnd) });
    spans.push({ start: at, end });
    at = end;
  }
  return { records, spans, head: text.slice(0, first) };
}

const block = (r: TaskMessage) => `**${r.role === 'user' ? 'User' : 'Assistant'}:**\n\n${r.content}\n\n`;

const MARKER = /^\[(Tool Use: (.+)|Tool( \(Error\))?|Image)\]$/;

/** A tool call's `Key: value` lines (keys written capitalised) as the object it was, as JSON text. */
function argumentsOf(lines: string[]): string {
  // What this tool writes for input that `Key: value` lines cannot hold: `Input: ` and its JSON.
  if (lines.length === 1 && lines[0].startsWith('Input: {')) {
    try {
      const v = JSON.parse(lines[0].slice('Input: '.length)) as unknown;
      if (isPlainObject(v)) return JSON.stringify(v);
    } catch {
      // not JSON: read as the line it is
    }
  }
  const args: Record<string, string> = {};
  let key: string | undefined;
  for (const line of lines) {
    const m = /^([A-Z][\w-]*): ?(.*)$/.exec(line);
    if (m) {
      key = m[1].charAt(0).toLowerCase() + m[1].slice(1);
      args[key] = m[2];
    } else if (key !== undefined) args[key] += `\n${line}`;
    else if (line.trim() !== '') args.input = (args.input ? `${args.input}\n` : '') + line;
  }
  return JSON.stringify(args);
}

/**
 * The content as its blocks' raw text, in order: runs of text, and each marker with the lines it holds (a call's
 * input, a result). An edit of a message's text replaces its one run of text and keeps the rest as written.
 */
function segments(content: string): Array<{ text: boolean; raw: string }> {
  const out: Array<{ text: boolean; raw: string[] }> = [];
  let inResult = false;
  for (const line of content.split('\n')) {
    const m = MARKER.exec(line);
    if (m) {
      out.push({ text: false, raw: [line] });
      inResult = m[1] !== 'Image' && m[2] === undefined;
      if (m[1] === 'Image') out.push({ text: true, raw: [] });
      continue;
    }
    if (inResult && line.startsWith('<environment_details>')) inResult = false;
    const last = out[out.length - 1];
    if (last && (inResult || !last.text) && last.raw.length > 0 && !(last.text === false && !inResult && MARKER.exec(last.raw[0])?.[1] === 'Image')) {
      // A call's input lines and a result's text stay with their marker.
      if (!last.text && (inResult || MARKER.exec(last.raw[0])?.[2] !== undefined)) {
        last.raw.push(line);
        continue;
      }
    }
    if (last?.text) last.raw.push(line);
    else out.push({ text: true, raw: [line] });
  }
  return out.filter((g) => !(g.text && g.raw.length === 0)).map((g) => ({ text: g.text, raw: g.raw.join('\n') }));
}

function parts(content: string): Part[] {
  const out: Part[] = [];
  const lines = content.split('\n');
  let text: string[] = [];
  let tool: { kind: 'call' | 'result'; name?: string; error?: boolean; lines: string[] } | undefined;
  const flush = () => {
    if (tool) {
      // No ids: a result answers the call before it (the order Cline wrote them in).
      if (tool.kind === 'call') out.push({ kind: 'tool-call', name: tool.name!, arguments: argumentsOf(tool.lines) });
      else out.push({ kind: 'tool-result', text: tool.lines.join('\n'), ...(tool.error ? { isError: true } : {}) });
      tool = undefined;
    }
    if (text.length > 0 && text.join('\n').trim() !== '') out.push({ kind: 'text', text: text.join('\n') });
    text = [];
  };
  for (const line of lines) {
    const m = MARKER.exec(line);
    if (m) {
      flush();
      if (m[1] === 'Image') out.push({ kind: 'image', ref: '[Image]' });
      else if (m[2] !== undefined) tool = { kind: 'call', name: m[2], lines: [] };
      else tool = { kind: 'result', error: m[3] !== undefined, lines: [] };
      continue;
    }
    if (tool?.kind === 'result' && line.startsWith('<environment_details>')) {
      const t = tool;
      tool = undefined;
      out.push({ kind: 'tool-result', text: t.lines.join('\n'), ...(t.error ? { isError: true } : {}) });
    }
    (tool ? tool.lines : text).push(line);
  }
  flush();
  return out;
}

function view(record: unknown): MessageView {
  const r = (isPlainObject(record) ? record : {}) as Partial<TaskMessage>;
  const role = r.role === 'assistant' ? 'assistant' : 'user';
  return { role, normalRole: role, parts: parts(typeof r.content === 'string' ? r.content : '') };
}

/**
 * A call's input as Cline writes it, `Key: value` a line (continued on the next lines), when those read back as
 * the same object: string values, keys a capital letter restores, no continuation line that looks like a key.
 * Other input is written as one `Input: ` line of JSON, which reads back as the object.
 */
function inputLines(input: unknown): string[] {
  if (!isPlainObject(input)) return [`Input: ${JSON.stringify({ input })}`];
  const entries = Object.entries(input);
  const plain = entries.every(([k, val]) => /^[a-z][\w-]*$/.test(k) && typeof val === 'string' && !val.split('\n').slice(1).some((l) => /^[A-Z][\w-]*: ?/.test(l)));
  if (!plain || entries.length === 0 || (entries.length === 1 && entries[0][0] === 'input')) return [`Input: ${JSON.stringify(input)}`];
  return entries.map(([k, val]) => `${k.charAt(0).toUpperCase()}${k.slice(1)}: ${val as string}`);
}

function asText(v: MessageView): string {
  return v.parts
    .map((p) => {
      switch (p.kind) {
        case 'text':
        case 'unknown':
          return p.text;
        case 'reasoning':
          return '';
        case 'tool-call': {
          let input: unknown;
          try {
            input = JSON.parse(p.arguments || '{}');
          } catch {
            input = p.arguments;
          }
          return [`[Tool Use: ${p.name}]`, ...inputLines(input)].join('\n');
        }
        case 'tool-result':
          return `[Tool${p.isError ? ' (Error)' : ''}]\n${p.text}`;
        default:
          return '[Image]';
      }
    })
    .filter((s) => s !== '')
    .join('\n');
}

export const clineTaskMarkdown: Codec = {
  id: 'cline-task-md',
  label: 'Cline task export (Markdown)',
  tool: 'Cline',
  syntax: 'markdown',
  extensions: ['.md'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: false, otherRecords: false, timestamps: false, toolParts: 'any' },
  sniff(head, name) {
    const starts = /^\*\*(User|Assistant):\*\*\n\n/.test(head.replace(/^\ufeff/, ''));
    if (starts && isName(name)) return 50;
    return starts ? 35 : 0;
  },
  parse(text, file) {
    if (!/^\*\*(User|Assistant):\*\*\n\n/.test(text) && !(isName(file) && text.trim() === '')) throw new NotThisFormat('expected a task export: "**User:**", a blank line, the message');
    const { records, spans, head } = split(text);
    const map = new WeakMap<object, { start: number; end: number }>();
    records.forEach((r, i) => map.set(r, spans[i]));
    return { codec: 'cline-task-md', conversations: [{ records }], otherRecords: 0, text, baseline: { spans: map, head } satisfies Baseline };
  },
  serialize(doc, conversations) {
    const b = doc.baseline as Baseline;
    const records = (conversations[0] ?? []) as TaskMessage[];
    const blocks = records.map((r, i) => {
      const span = b.spans.get(r);
      if (!span) return block(r);
      const was = doc.text.slice(span.start, span.end);
      // Its own text, but the separator after it: the last message of the file has none (and, trimmed by hand,
      // maybe not its blank line either, which it needs before another message follows it).
      if (was.endsWith(`\n\n${SEPARATOR}`)) return was.slice(0, -SEPARATOR.length);
      return i < records.length - 1 && !was.endsWith('\n\n') ? `${was.replace(/\n?$/, '\n')}\n` : was;
    });
    return b.head + blocks.join(SEPARATOR);
  },
  view,
  fromView: (v) => ({ role: v.normalRole === 'assistant' ? 'assistant' : 'user', content: asText(v) }) satisfies TaskMessage,
  loses(v) {
    const lost: string[] = [];
    if (v.normalRole === 'system') lost.push('the system role (a task export holds the user’s and the assistant’s messages; it becomes the user’s)');
    if (v.parts.some((p) => p.kind === 'reasoning')) lost.push('reasoning (a task export leaves it out)');
    if (v.parts.some((p) => p.kind === 'image' || p.kind === 'file')) lost.push('images and files (written as [Image])');
    return lost;
  },
  withText(record, text) {
    if (!isPlainObject(record) || typeof record.role !== 'string' || typeof record.content !== 'string') return undefined;
    // The message's one run of text is what the editor shows: its calls, results and images stay as written.
    const segs = segments(record.content);
    const texts = segs.filter((g) => g.text && /\S/.test(g.raw));
    if (segs.every((g) => g.text)) return { ...record, content: text };
    // No text of its own (a call, a result alone), or several runs: not one text to edit.
    if (texts.length !== 1) return undefined;
    const at = segs.indexOf(texts[0]);
    // Text after a result is told from the result only by Cline's `<environment_details>`: it must keep it.
    const previous = at > 0 ? MARKER.exec(segs[at - 1].raw.split('\n')[0]) : null;
    if (previous && previous[1] !== 'Image' && previous[2] === undefined && !text.startsWith('<environment_details>')) return undefined;
    return { ...record, content: segs.map((g, i) => (i === at ? text : g.raw)).join('\n') };
  },
  rawText(doc, _c, record) {
    const span = (doc.baseline as Baseline).spans.get(record as object);
    if (!span) return undefined;
    // The message's own block: the separator after it belongs between messages.
    const was = doc.text.slice(span.start, span.end);
    return was.endsWith(`\n\n${SEPARATOR}`) ? was.slice(0, -SEPARATOR.length) : was;
  },
};
