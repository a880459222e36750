import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  contentPreview,
  formatFromPath,
  getTokenizer,
  listConversationFiles,
  readConversationFile,
  resolveEncoding,
  serializeConversation,
  summarizeTokens,
  writeFileAtomicSync,
  type FileFormat,
} from '../core/index.js';
import { humanBytes, printJson, table } from './output.js';
import { InputError, UsageError } from './usage.js';

export interface CommonOptions {
  json: boolean;
  model: string;
}

function modelInfo(model: string) {
  const choice = resolveEncoding(model);
  return { model: choice.model, encoding: choice.encoding, approximate: choice.approximate };
}

export function lsCommand(dir: string, opts: CommonOptions): void {
  const path = resolve(dir);
  if (!existsSync(path) || !statSync(path).isDirectory()) throw new InputError(`${dir}: no such directory`);
  const entries = listConversationFiles(path, getTokenizer(opts.model));
  if (opts.json) {
    printJson({
      directory: path,
      ...modelInfo(opts.model),
      files: entries.map((e) => ({ ...e, modified: e.modified.toISOString() })),
    });
    return;
  }
  if (entries.length === 0) {
    process.stdout.write(`No conversation files (.json, .yaml, .yml) in ${path}\n`);
    return;
  }
  const rows = entries.map((e) => [
    e.name,
    e.format,
    e.messages ?? '',
    e.tokens ?? '',
    humanBytes(e.bytes),
    e.modified.toISOString().replace('T', ' ').slice(0, 19),
  ]);
  process.stdout.write(table(['NAME', 'FORMAT', 'MESSAGES', 'TOKENS', 'SIZE', 'MODIFIED'], rows) + '\n');
  for (const e of entries.filter((x) => x.error)) process.stdout.write(`error: ${e.error}\n`);
}

export function showCommand(file: string, opts: CommonOptions): void {
  const parsed = readConversationFile(file);
  const tokenizer = getTokenizer(opts.model);
  const summary = summarizeTokens(parsed.messages, tokenizer);
  if (opts.json) {
    printJson({
      file: resolve(file),
      format: parsed.format,
      shape: parsed.shape,
      ...modelInfo(opts.model),
      messages: parsed.messages.map((m, i) => ({
        ...summary.messages[i],
        timestamp: m.timestamp,
        message_id: m.message_id,
        content: m.content,
      })),
      totalTokens: summary.totalTokens,
    });
    return;
  }
  const rows = parsed.messages.map((m, i) => {
    const s = summary.messages[i];
    const stored = s.storedTokens !== undefined && s.storedTokens !== s.tokens ? `${s.storedTokens}` : '';
    return [i, m.role, s.tokens, stored, typeof m.timestamp === 'string' ? m.timestamp : '', contentPreview(m.content, 60)];
  });
  process.stdout.write(table(['#', 'ROLE', 'TOKENS', 'STORED', 'TIMESTAMP', 'CONTENT'], rows) + '\n');
  const approx = resolveEncoding(opts.model).approximate ? ' (approximate)' : '';
  process.stdout.write(
    `\n${parsed.messages.length} messages, ${summary.totalTokens} tokens (${opts.model}, ${tokenizer.encoding}${approx})\n`,
  );
}

export function tokensCommand(file: string, opts: CommonOptions): void {
  const parsed = readConversationFile(file);
  const summary = summarizeTokens(parsed.messages, getTokenizer(opts.model));
  const result = {
    file: resolve(file),
    ...modelInfo(opts.model),
    messages: parsed.messages.length,
    totalTokens: summary.totalTokens,
    byRole: summary.byRole,
    byCategory: summary.byCategory,
    ...summary.categories,
  };
  if (opts.json) {
    printJson(result);
    return;
  }
  const section = (title: string, counts: Record<string, number>) =>
    `${title}\n` + table(['', 'TOKENS'], Object.entries(counts).map(([k, v]) => [k, v])).replace(/^.*\n/, '') + '\n';
  process.stdout.write(`${parsed.messages.length} messages, ${summary.totalTokens} tokens\n\n`);
  process.stdout.write(section('By role', summary.byRole) + '\n');
  process.stdout.write(section('By category', summary.byCategory) + '\n');
  const c = summary.categories;
  process.stdout.write(`input_tokens ${c.input_tokens}, output_tokens ${c.output_tokens}, total_tokens ${c.total_tokens}\n`);
}

export function convertCommand(file: string, to: string | undefined, out: string | undefined): void {
  if (to !== 'json' && to !== 'yaml') throw new UsageError('convert needs --to json or --to yaml');
  const parsed = readConversationFile(file);
  const target = { format: to as FileFormat, shape: parsed.shape, root: parsed.root };
  const text = serializeConversation(parsed.messages, target);
  if (!out) {
    process.stdout.write(text);
    return;
  }
  const outFormat = formatFromPath(out);
  if (outFormat && outFormat !== to) throw new UsageError(`-o ${out} has a .${outFormat === 'json' ? 'json' : 'yaml'} name but --to is ${to}`);
  writeFileAtomicSync(out, text);
  process.stderr.write(`Wrote ${parsed.messages.length} messages to ${out}\n`);
}
