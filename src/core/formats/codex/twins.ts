import { isPlainObject } from '../../message.js';
import type { JsonlLine, JsonlOutLine } from '../syntax/jsonl.js';

/**
 * Codex writes each user and assistant message twice: as the `response_item` the model is sent on resume, and
 * as an `event_msg` (`user_message` / `agent_message`) its transcript shows. An edit that changed only one of
 * them would show the user one text and send the model another.
 */

const TWIN: Record<string, string> = { user: 'user_message', assistant: 'agent_message' };

/** The text of a message item, when it is one plain text a twin can repeat. */
function messageText(value: unknown): { role: string; text: string } | undefined {
  if (!isPlainObject(value) || value.type !== 'response_item' || !isPlainObject(value.payload)) return undefined;
  const p = value.payload;
  if (p.type !== 'message' || typeof p.role !== 'string' || !TWIN[p.role] || !Array.isArray(p.content)) return undefined;
  const texts = p.content.filter((b) => isPlainObject(b) && typeof b.text === 'string').map((b) => (b as { text: string }).text);
  return texts.length === 1 ? { role: p.role, text: texts[0] } : undefined;
}

function twinOf(value: unknown): { kind: string; message: string } | undefined {
  if (!isPlainObject(value) || value.type !== 'event_msg' || !isPlainObject(value.payload)) return undefined;
  const p = value.payload;
  return typeof p.type === 'string' && typeof p.message === 'string' ? { kind: p.type, message: p.message } : undefined;
}

/** For each message line of the file, the event line that repeats it (the nearest after it, within a few lines). */
export function twinLines(lines: readonly JsonlLine[]): Map<number, number> {
  const twins = new Map<number, number>();
  const claimed = new Set<number>();
  lines.forEach((line, i) => {
    const m = messageText(line.value);
    if (!m) return;
    for (let k = i + 1; k < Math.min(lines.length, i + 8); k++) {
      const t = twinOf(lines[k].value);
      if (t && !claimed.has(k) && t.kind === TWIN[m.role] && t.message === m.text) {
        twins.set(i, k);
        claimed.add(k);
        return;
      }
      // The twin never lies past the next message item.
      if (messageText(lines[k].value)) return;
    }
  });
  return twins;
}

function withMessage(event: unknown, message: string): unknown {
  const e = event as Record<string, unknown>;
  return { ...e, payload: { ...(e.payload as Record<string, unknown>), message } };
}

function newTwin(value: unknown): unknown | undefined {
  const m = messageText(value);
  if (!m) return undefined;
  const timestamp = isPlainObject(value) && typeof value.timestamp === 'string' ? value.timestamp : new Date().toISOString();
  return { timestamp, type: 'event_msg', payload: m.role === 'user' ? { type: 'user_message', message: m.text, images: [] } : { type: 'agent_message', message: m.text } };
}

/** The planned lines with each message's twin event edited, removed or added along with it. */
export function keepTwinsInStep(lines: readonly JsonlLine[], out: readonly JsonlOutLine[]): JsonlOutLine[] {
  const twins = twinLines(lines);
  const survivors = new Map<number, JsonlOutLine>();
  for (const o of out) if (o.record && o.line !== undefined) survivors.set(o.line, o);
  const twinOwner = new Map<number, number>();
  for (const [message, event] of twins) twinOwner.set(event, message);
  const result: JsonlOutLine[] = [];
  for (const o of out) {
    if (!o.record && o.line !== undefined && twinOwner.has(o.line)) {
      const owner = survivors.get(twinOwner.get(o.line)!);
      if (!owner) continue; // its message was deleted
      const now = messageText(owner.value);
      const was = twinOf(o.value)!;
      if (now && now.text !== was.message) {
        result.push({ ...o, value: withMessage(o.value, now.text) });
        continue;
      }
    }
    result.push(o);
    if (o.record && o.line === undefined) {
      const twin = newTwin(o.value);
      if (twin !== undefined) result.push({ value: twin, record: false, eol: undefined });
    }
  }
  return result;
}
