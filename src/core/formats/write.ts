import { deepEqual, type Message } from '../message.js';
import { parseJsonValues } from './json.js';
import { parseYamlValues } from './yaml.js';
import { parseConversationText } from './read.js';
import type { ParsedConversation } from './types.js';
import { writeFileAtomicSync } from '../storage/atomic-write.js';
import { serializeJson } from './json.js';
import type { Baseline, FileFormat, FileShape } from './types.js';
import { serializeYaml } from './yaml.js';

export interface SerializeTarget {
  format: FileFormat;
  shape?: FileShape;
  root?: Record<string, unknown>;
  /** The file as it was read: unchanged messages keep their exact text, new ones follow its style. */
  baseline?: Baseline;
}

/** Nothing changed: the same objects, in the same order, equal to what the file says. */
function unchanged(messages: readonly Message[], target: SerializeTarget): boolean {
  const b = target.baseline;
  if (!b || b.format !== target.format || b.shape !== (target.shape ?? 'list')) return false;
  for (let i = 0; i < messages.length; i++) if (b.origin.get(messages[i]) !== i) return false;
  // The same objects may have been changed in place: compare with the file's own values.
  const again = (b.format === 'json' ? parseJsonValues : parseYamlValues)(b.text, b.shape);
  return again !== undefined && again.length === messages.length && again.every((m, i) => deepEqual(m, messages[i]) && Object.keys(m as object).join() === Object.keys(messages[i]).join());
}

export function serializeConversation(messages: readonly Message[], target: SerializeTarget): string {
  const t = { shape: target.shape ?? 'list', root: target.root, baseline: target.baseline };
  const bom = target.baseline?.bom && target.baseline.format === target.format ? '\ufeff' : '';
  if (unchanged(messages, target)) return bom + target.baseline!.text;
  return bom + (target.format === 'json' ? serializeJson(messages, t) : serializeYaml(messages, t));
}

export function writeConversationFile(path: string, messages: readonly Message[], target: SerializeTarget): string {
  const text = serializeConversation(messages, target);
  writeFileAtomicSync(path, text);
  return text;
}

/**
 * After `text` was written to `file`, it becomes the baseline for the next save: parsed once, with the live
 * message objects (which are what was written, in order) mapped onto its elements.
 */
export function baselineAfterWrite(text: string, file: string, format: FileFormat, messages: Message[]): ParsedConversation {
  const parsed = parseConversationText(text, file, format);
  parsed.baseline.origin = new WeakMap(messages.map((m, i) => [m, i]));
  return { ...parsed, messages };
}
