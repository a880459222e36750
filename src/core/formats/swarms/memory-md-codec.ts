import { basename } from 'node:path';
import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { normalizeRole, type MessageView } from '../model.js';
import { roleKey, type RoleDeclaration } from '../roles.js';

/** A block of the interaction log: `### role — timestamp`, a blank line, the content, then `---`. */
interface MemoryRecord {
  role: string;
  timestamp: string;
  content: string;
}

interface MemoryBaseline {
  /** Where each block's text is (heading to separator included), by the record read from it. */
  spans: WeakMap<object, { start: number; end: number }>;
  /** Everything before the first block (the header), and after the last. */
  head: number;
  tail: number;
  newline: string;
}

const HEADING = /^### (.*?) — (.*)$/;
const SEPARATOR = '---';

function blockText(r: MemoryRecord, nl: string): string {
  return `### ${r.role} — ${r.timestamp}${nl}${nl}${r.content.trim()}${nl}${nl}${SEPARATOR}${nl}${nl}`;
}

/**
 * Splits the log into blocks. A block ends at a `---` line that is followed by the next heading or by the end
 * of the file, so content holding its own `---` or `###` lines stays whole.
 */
function splitBlocks(text: string): { records: MemoryRecord[]; spans: Array<{ start: number; end: number }>; head: number; tail: number } {
  const lines: Array<{ start: number; end: number; text: string }> = [];
  for (let at = 0; at < text.length; ) {
    let e = text.indexOf('\n', at);
    if (e === -1) e = text.length;
    lines.push({ start: at, end: e + 1, text: text.slice(at, e).replace(/\r$/, '') });
    at = e + 1;
  }
  const headings = lines.map((l, i) => (HEADING.test(l.text) ? i : -1)).filter((i) => i !== -1);
  const records: MemoryRecord[] = [];
  const spans: Array<{ start: number; end: number }> = [];
  // A heading starts a block only at the start of the log or right after a separator and blank line.
  const starts = headings.filter((i, k) => k === 0 || (i >= 2 && lines[i - 1].text === '' && lines[i - 2].text === SEPARATOR));
  for (let k = 0; k < starts.length; k++) {
    const first = starts[k];
    const next = k + 1 < starts.length ? starts[k + 1] : lines.length;
    let last = next - 1;
    while (last > first && lines[last].text === '') last--;
    const m = HEADING.exec(lines[first].text)!;
    const bodyEnd = lines[last].text === SEPARATOR ? last : last + 1;
    // The content's own text, line breaks and all, between the heading and the separator.
    const content = text.slice(lines[first].end, bodyEnd < lines.length ? lines[bodyEnd].start : text.length).trim();
    records.push({ role: m[1], timestamp: m[2], content });
    spans.push({ start: lines[first].start, end: next < lines.length ? lines[next].start : text.length });
  }
  return { records, spans, head: spans.length > 0 ? spans[0].start : text.length, tail: text.length };
}

/**
 * A swarms Agent logs its own turns under its name and the user's under `user_name`, and names the
 * conversation after itself (`**Conversation:** PricingAgent_…`): a name the header holds is the agent, and
 * when exactly one other unknown name speaks beside it, that is the user.
 */
function memoryRoles(text: string, records: readonly MemoryRecord[]): RoleDeclaration[] {
  const conversation = /^\*\*Conversation:\*\*\s*(.+?)\s*$/m.exec(text.slice(0, 4096))?.[1]?.toLowerCase() ?? '';
  const unknown = [...new Set(records.map((r) => roleKey(r.role)))].filter((r) => r !== '' && normalizeRole(r) === 'other');
  const agents = conversation ? unknown.filter((r) => conversation.includes(r.toLowerCase())) : [];
  const out: RoleDeclaration[] = agents.map((r) => ({ role: r, normalRole: 'assistant', from: 'the conversation the MEMORY.md header names' }));
  const others = unknown.filter((r) => !agents.includes(r));
  if (agents.length === 1 && others.length === 1) out.push({ role: others[0], normalRole: 'user', from: 'the one speaker beside the agent the header names' });
  return out;
}

const isMemoryName = (name: string) => /^memory\.md$/i.test(basename(name));

/** swarms' persistent memory: a header, then one `### role — timestamp` block per interaction. */
export const swarmsMemory: Codec = {
  id: 'swarms-memory',
  label: 'swarms MEMORY.md',
  syntax: 'markdown',
  extensions: ['.md'],
  capabilities: { conversations: 'one', toolCalls: false, reasoning: false, otherRecords: false, timestamps: true },
  sniff(head, name) {
    if (isMemoryName(name)) return 50;
    if (/^# Agent Memory\b/.test(head.trimStart()) || /^## Interaction Log\s*$/m.test(head)) return 40;
    return 0;
  },
  parse(text, file) {
    if (!isMemoryName(file) && !/^# Agent Memory\b/.test(text.trimStart()) && !/^## Interaction Log\s*$/m.test(text)) {
      throw new NotThisFormat('no "# Agent Memory" header or "## Interaction Log" section');
    }
    const { records, spans, head, tail } = splitBlocks(text);
    const map = new WeakMap<object, { start: number; end: number }>();
    records.forEach((r, i) => map.set(r, spans[i]));
    // The file's line break is the one its first line ends with (content may hold others).
    const first = text.indexOf('\n');
    const baseline: MemoryBaseline = { spans: map, head, tail, newline: first > 0 && text[first - 1] === '\r' ? '\r\n' : '\n' };
    return { codec: 'swarms-memory', conversations: [{ records }], otherRecords: 0, text, baseline, roles: memoryRoles(text, records) };
  },
  serialize(doc, conversations) {
    const b = doc.baseline as MemoryBaseline;
    const records = (conversations[0] ?? []) as MemoryRecord[];
    let out = doc.text.slice(0, b.head);
    // A header that does not end with a blank line gets one before the first new block.
    if (records.length > 0 && out !== '' && !/\n\s*\n$/.test(out) && !b.spans.has(records[0])) out += b.newline;
    for (const r of records) {
      const span = b.spans.get(r);
      const original = span ? (splitBlocks(doc.text.slice(span.start, span.end)).records[0] as MemoryRecord | undefined) : undefined;
      const same = original && original.role === r.role && original.timestamp === r.timestamp && original.content === r.content.trim();
      out += same ? doc.text.slice(span!.start, span!.end) : blockText(r, b.newline);
    }
    return out;
  },
  namedSpeakers: true,
  view(record): MessageView {
    const r = (isPlainObject(record) ? record : {}) as Partial<MemoryRecord>;
    const role = String(r.role ?? '');
    // As in the swarms JSON: a name that is no role is an agent's (its declarations can say otherwise).
    const known = normalizeRole(role);
    return { role, normalRole: known === 'other' && role.trim() !== '' ? 'assistant' : known, parts: r.content ? [{ kind: 'text', text: r.content }] : [], timestamp: r.timestamp };
  },
  fromView(view) {
    const text = view.parts.map((p) => ('text' in p ? p.text : p.kind === 'tool-call' ? `${p.name}(${p.arguments})` : '')).filter(Boolean).join('\n');
    return { role: view.role || view.normalRole, timestamp: view.timestamp ?? new Date().toISOString(), content: text } satisfies MemoryRecord;
  },
  loses(view) {
    const lost: string[] = [];
    if (view.parts.some((p) => p.kind === 'tool-call' || p.kind === 'tool-result')) lost.push('tool calls and results (kept as text)');
    if (view.parts.some((p) => p.kind === 'reasoning')) lost.push('reasoning');
    if (view.parts.some((p) => p.kind === 'image' || p.kind === 'file')) lost.push('images and files');
    return lost;
  },
  withText: (record, text) => (isPlainObject(record) ? { ...record, content: text } : undefined),
  rawText(doc, _c, record) {
    const span = (doc.baseline as MemoryBaseline).spans.get(record as object);
    return span ? doc.text.slice(span.start, span.end) : undefined;
  },
};

