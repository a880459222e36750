import { isUtf8 } from 'node:buffer';
import { utf8Text, type Utf8Text } from './syntax/utf8-text.js';
import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { ConversationFileError } from './errors.js';
import { parseJson } from './json.js';
import { DEFAULT_MAX_FILE_BYTES, type FileFormat, type ParsedConversation, type ReadOptions } from './types.js';
import { parseYaml } from './yaml.js';

export const SUPPORTED_EXTENSIONS = ['.json', '.yaml', '.yml'] as const;

export function formatFromPath(path: string): FileFormat | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  return undefined;
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** Decodes file bytes as UTF-8 text, refusing binary data and invalid UTF-8 with a clear reason. */
export function decodeText(bytes: Uint8Array, file: string): string {
  checkText(bytes, file);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

function checkText(bytes: Uint8Array, file: string): void {
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw new ConversationFileError(file, `binary data (a NUL byte at offset ${nul}), not a text conversation file`);
  // isUtf8 validates without building a string (simdutf); a decode after it cannot fail.
  if (!isUtf8(bytes)) throw new ConversationFileError(file, 'not valid UTF-8 text');
}

/** decodeText, the text left undecoded until asked for (a line log is read a line at a time from its bytes). */
export function textOfBytes(bytes: Buffer, file: string): Utf8Text {
  checkText(bytes, file);
  return utf8Text(bytes);
}

/** Parses conversation text; `file` only names it in errors. */
export function parseConversationText(text: string, file: string, format: FileFormat): ParsedConversation {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  if (!/\S/.test(body)) throw new ConversationFileError(file, 'the file is empty (expected a list of messages)');
  const parsed = format === 'json' ? parseJson(body, file) : parseYaml(body, file);
  if (bom) parsed.baseline.bom = true;
  return parsed;
}

export function checkSize(size: number, file: string, maxFileBytes = DEFAULT_MAX_FILE_BYTES): void {
  if (size > maxFileBytes) {
    throw new ConversationFileError(
      file,
      `the file is ${formatSize(size)}, over the ${formatSize(maxFileBytes)} limit (raise maxFileBytes to read it)`,
    );
  }
}

/** Reads and parses a conversation file. Throws ConversationFileError naming the file (and line, column). */
export function readConversationFile(file: string, options: ReadOptions = {}): ParsedConversation {
  const format = options.format ?? formatFromPath(file);
  if (!format) {
    throw new ConversationFileError(
      file,
      `unsupported file type "${extname(file) || '(no extension)'}": expected .json, .yaml or .yml`,
    );
  }
  return parseConversationText(readFileText(file, options.maxFileBytes), file, format);
}

/** A file's text as a reader takes it: a missing file, a folder or one past `maxFileBytes` is an error naming it. */
export function readFileText(file: string, maxFileBytes?: number): string {
  return decodeText(readFileBytes(file, maxFileBytes), file);
}

/** A file's bytes, with the errors readFileText gives. */
export function readFileBytes(file: string, maxFileBytes?: number): Buffer {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    throw new ConversationFileError(file, 'no such file');
  }
  if (stat.isDirectory()) throw new ConversationFileError(file, 'is a directory, not a file');
  checkSize(stat.size, file, maxFileBytes);
  return readFileSync(file);
}
