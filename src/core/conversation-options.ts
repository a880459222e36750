import { randomBytes, randomUUID } from 'node:crypto';
import { extname, join, resolve } from 'node:path';
import { ValueError } from './errors.js';
import type { Message } from './message.js';

export type ExportMethod = 'json' | 'yaml';

export interface Logger {
  warn(message: string): void;
}

/** Constructor options, named as DECISIONS.md maps the spec's Python parameters. */
export interface ConversationOptions {
  id?: string;
  name?: string;
  systemPrompt?: string;
  timeEnabled?: boolean;
  autosave?: boolean;
  saveFilepath?: string;
  loadFilepath?: string;
  contextLength?: number;
  rules?: string;
  customRulesPrompt?: string;
  user?: string;
  saveAsYamlOn?: boolean;
  saveAsJsonBool?: boolean;
  tokenCount?: boolean;
  messageIdOn?: boolean;
  tokenizerModelName?: string;
  conversationsDir?: string;
  exportMethod?: string;
  dynamicContextWindow?: boolean;
  cacheEnabled?: boolean;
  outputMetadata?: boolean;
  memoryMdPath?: string;
  messages?: Array<Record<string, unknown>>;
  /** Not in the Python spec: the size above which files are refused (default 256 MiB). */
  maxFileBytes?: number;
  /** Not in the Python spec: where warnings go (default: console.warn). */
  logger?: Logger;
}

export const DEFAULT_CONTEXT_LENGTH = 8192;
export { DEFAULT_MODEL as DEFAULT_TOKENIZER_MODEL } from './defaults.js';

export const consoleLogger: Logger = {
  warn: (message) => console.warn(`conversation: ${message}`),
};

export function randomConversationName(): string {
  return `conversation-${randomBytes(4).toString('hex')}`;
}

export function randomId(): string {
  return randomUUID().replace(/-/g, '');
}

export function checkExportMethod(method: string | undefined): ExportMethod {
  const m = method ?? 'json';
  if (m !== 'json' && m !== 'yaml') {
    throw new ValueError(`exportMethod must be "json" or "yaml", not ${JSON.stringify(m)}`);
  }
  return m;
}

export function checkContextLength(value: unknown): number {
  if (value === undefined) return DEFAULT_CONTEXT_LENGTH;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new ValueError(`contextLength must be a positive integer, not ${JSON.stringify(value)}`);
  }
  return value;
}

export function defaultConversationsDir(dir: string | undefined): string {
  return dir ? resolve(dir) : join(process.cwd(), 'conversations');
}

/** The save path with the extension of the export method (a mismatching one is replaced). */
export function saveFilepathFor(path: string | undefined, name: string, dir: string, method: ExportMethod): string {
  const wanted = method === 'json' ? '.json' : '.yaml';
  if (!path) return join(dir, `conversation_${name}${wanted}`);
  const ext = extname(path);
  const matches = method === 'json' ? ext.toLowerCase() === '.json' : ['.yaml', '.yml'].includes(ext.toLowerCase());
  if (matches) return path;
  return (ext ? path.slice(0, -ext.length) : path) + wanted;
}

/** Keys of a `{metadata: ...}` wrapper that a load may apply, with the option each sets. */
export const WRAPPER_METADATA_KEYS = {
  id: 'id',
  name: 'name',
  system_prompt: 'systemPrompt',
  rules: 'rules',
  custom_rules_prompt: 'customRulesPrompt',
  user: 'user',
  time_enabled: 'timeEnabled',
  message_id_on: 'messageIdOn',
  token_count: 'tokenCount',
  tokenizer_model_name: 'tokenizerModelName',
  context_length: 'contextLength',
  dynamic_context_window: 'dynamicContextWindow',
} as const;

export type SeedMessage = Message;

/** Applies a wrapper's metadata to a conversation: only known options, only values of the right type. */
export function applyWrapperMetadata(target: Record<string, unknown>, metadata: Record<string, unknown>): void {
  for (const [key, option] of Object.entries(WRAPPER_METADATA_KEYS)) {
    const value = metadata[key];
    if (value === undefined || value === null) continue;
    if (option === 'contextLength') {
      if (typeof value === 'number' && Number.isInteger(value) && value > 0) target.contextLength = value;
    } else if (['timeEnabled', 'messageIdOn', 'tokenCount', 'dynamicContextWindow'].includes(option)) {
      if (typeof value === 'boolean') target[option] = value;
    } else if (typeof value === 'string') {
      target[option] = value;
    }
  }
}
