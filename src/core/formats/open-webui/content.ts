import type { Part } from '../model.js';

/**
 * An Open WebUI answer's `content` is Markdown with the turn's other parts folded in as `<details>` blocks the
 * backend writes (utils/middleware.py, serialize_content_blocks): `type="reasoning"` (the thinking, each line
 * quoted with "> ", HTML-escaped in newer versions), `type="tool_calls"` (the call's `id`, `name` and
 * `arguments`, its `result` as JSON, all HTML-escaped attributes), `type="code_interpreter"`. Any other
 * `<details>` is the model's own Markdown and stays text.
 */
const BLOCK = /<details\s+type="(reasoning|tool_calls|code_interpreter)"([^>]*)>([\s\S]*?)<\/details>/g;
const MARKER = /<details\s+type="(?:reasoning|tool_calls|code_interpreter)"/;

export interface Block {
  type: string;
  attrs: Record<string, string>;
  body: string;
  start: number;
  end: number;
}

const ENTITY = /&(amp|lt|gt|quot|apos|#x27|#39|#(\d+)|#[xX]([0-9a-fA-F]+));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#x27': "'", '#39': "'" };

/** HTML entities back to their characters, in one pass (so "&amp;lt;" is "&lt;"). */
export function unescapeHtml(s: string): string {
  return s.replace(ENTITY, (all, name: string, dec?: string, hex?: string) => {
    if (dec !== undefined) return String.fromCodePoint(Number(dec));
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
    return NAMED[name] ?? all;
  });
}

/** As Python's `html.escape(s, quote=True)`. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

function attributes(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of s.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1]] = m[2] ?? m[3] ?? '';
  return out;
}

export function blocksOf(content: string): Block[] {
  return [...content.matchAll(BLOCK)].map((m) => ({ type: m[1], attrs: attributes(m[2]), body: m[3], start: m.index, end: m.index + m[0].length }));
}

/** Whether `text` would read as a block of an answer (an edit must not turn words into a tool call). */
export const holdsBlockMarker = (text: string) => MARKER.test(text);

/**
 * The text runs between the blocks, as they read: the line break the writer puts after a block is not the
 * text's, nor are the line breaks before one. `final` is the run after the last block (or the whole content).
 */
export function textRuns(content: string, blocks: readonly Block[]): { text: string; final: boolean; at: number }[] {
  const out: { text: string; final: boolean; at: number }[] = [];
  let from = 0;
  for (let k = 0; k <= blocks.length; k++) {
    const end = k < blocks.length ? blocks[k].start : content.length;
    let text = content.slice(from, end);
    if (k > 0 && text.startsWith('\n')) text = text.slice(1);
    if (k < blocks.length) text = text.replace(/\n+$/, '');
    out.push({ text, final: k === blocks.length, at: k });
    if (k < blocks.length) from = blocks[k].end;
  }
  return out;
}

/** A JSON text that holds a string is that string (a tool's result is written as `json.dumps(result)`). */
function jsonString(s: string): string {
  try {
    const v = JSON.parse(s) as unknown;
    return typeof v === 'string' ? v : s;
  } catch {
    return s;
  }
}

function reasoningText(body: string): string {
  const lines = body.replace(/<summary>[\s\S]*?<\/summary>/, '').replace(/^\n/, '').replace(/\n$/, '').split('\n');
  return unescapeHtml(lines.map((l) => l.replace(/^(?:&gt;|>) ?/, '')).join('\n')).trim();
}

function blockParts(b: Block): Part[] {
  if (b.type === 'reasoning') {
    const text = reasoningText(b.body);
    return text ? [{ kind: 'reasoning', text }] : [];
  }
  if (b.type === 'tool_calls') {
    const id = b.attrs.id ? unescapeHtml(b.attrs.id) : undefined;
    const parts: Part[] = [{ kind: 'tool-call', ...(id ? { id } : {}), name: unescapeHtml(b.attrs.name ?? ''), arguments: unescapeHtml(b.attrs.arguments ?? '') }];
    // The result is an attribute; some writers put it in the body, after the summary.
    const inBody = b.body.replace(/<summary>[\s\S]*?<\/summary>/, '').trim();
    const result = b.attrs.result !== undefined ? jsonString(unescapeHtml(b.attrs.result)) : inBody ? jsonString(unescapeHtml(inBody)) : undefined;
    if (result !== undefined) parts.push({ kind: 'tool-result', ...(id ? { callId: id } : {}), text: result });
    return parts;
  }
  return [{ kind: 'unknown', type: b.type, text: unescapeHtml(b.body.replace(/<summary>[\s\S]*?<\/summary>/, '').trim()) }];
}

/** The parts of an answer's content, in the order they stand. */
export function answerParts(content: string): Part[] {
  const blocks = blocksOf(content);
  if (blocks.length === 0) return content === '' ? [] : [{ kind: 'text', text: content }];
  const runs = textRuns(content, blocks);
  const parts: Part[] = [];
  runs.forEach((run, k) => {
    if (run.final ? run.text !== '' : run.text.trim() !== '') parts.push({ kind: 'text', text: run.text });
    if (k < blocks.length) for (const p of blockParts(blocks[k])) parts.push(p);
  });
  return parts;
}

/**
 * The content with its answer text replaced: the text after the last block, when that is the only text (the
 * usual reasoning, calls, then the answer); undefined when words stand between blocks too.
 */
export function withAnswerText(content: string, text: string): string | undefined {
  if (holdsBlockMarker(text)) return undefined;
  const blocks = blocksOf(content);
  if (blocks.length === 0) return text;
  const runs = textRuns(content, blocks);
  if (runs.some((r) => !r.final && r.text.trim() !== '')) return undefined;
  return content.slice(0, blocks[blocks.length - 1].end) + '\n' + text;
}

function reasoningBlock(text: string): string {
  const quoted = escapeHtml(text)
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  return `<details type="reasoning" done="true" duration="0">\n<summary>Thought for 0 seconds</summary>\n${quoted}\n</details>`;
}

function toolBlock(call: Extract<Part, { kind: 'tool-call' }>, result: Extract<Part, { kind: 'tool-result' }> | undefined): string {
  const head = `type="tool_calls" done="${result ? 'true' : 'false'}" id="${escapeHtml(call.id ?? '')}" name="${escapeHtml(call.name)}" arguments="${escapeHtml(call.arguments)}"`;
  if (!result) return `<details ${head}>\n<summary>Executing...</summary>\n</details>`;
  return `<details ${head} result="${escapeHtml(JSON.stringify(result.text))}" files="" embeds="">\n<summary>Tool Executed</summary>\n</details>`;
}

/**
 * An answer's content as Open WebUI writes it: reasoning and tool calls (each with its result, when the turn
 * holds it) as blocks, text between them, a line break after each block. Results without their call here are
 * text.
 */
export function answerContent(parts: readonly Part[]): string {
  const calls = new Set(parts.flatMap((p) => (p.kind === 'tool-call' && p.id ? [p.id] : [])));
  const results = new Map(parts.flatMap((p) => (p.kind === 'tool-result' && p.callId && calls.has(p.callId) ? [[p.callId, p] as const] : [])));
  const pieces: { block: boolean; text: string }[] = [];
  const text = (t: string) => {
    const last = pieces[pieces.length - 1];
    if (last && !last.block) last.text += '\n' + t;
    else pieces.push({ block: false, text: t });
  };
  for (const p of parts) {
    if (p.kind === 'text') text(p.text);
    else if (p.kind === 'reasoning' && !p.encrypted && !p.signature) pieces.push({ block: true, text: reasoningBlock(p.text) });
    else if (p.kind === 'tool-call') pieces.push({ block: true, text: toolBlock(p, p.id ? results.get(p.id) : undefined) });
    else if (p.kind === 'tool-result' && !(p.callId && results.get(p.callId) === p)) text(p.text);
    else if (p.kind === 'unknown') text(p.text);
  }
  return pieces.map((p) => p.text).join('\n');
}
