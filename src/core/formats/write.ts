import type { Message } from '../message.js';
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

export function serializeConversation(messages: readonly Message[], target: SerializeTarget): string {
  const t = { shape: target.shape ?? 'list', root: target.root, baseline: target.baseline };
  return target.format === 'json' ? serializeJson(messages, t) : serializeYaml(messages, t);
}

export function writeConversationFile(path: string, messages: readonly Message[], target: SerializeTarget): string {
  const text = serializeConversation(messages, target);
  writeFileAtomicSync(path, text);
  return text;
}
