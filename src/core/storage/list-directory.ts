import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { ConversationFileError } from '../formats/errors.js';
import { formatFromPath, readConversationFile } from '../formats/read.js';
import type { FileFormat } from '../formats/types.js';
import type { Tokenizer } from '../tokenizer/tokenizer.js';
import { sentTokens } from '../stats.js';

export interface DirectoryEntry {
  /** File name without its extension. */
  name: string;
  file: string;
  format: FileFormat;
  bytes: number;
  modified: Date;
  messages?: number;
  tokens?: number;
  /** Why the file could not be read; such files are listed, never skipped. */
  error?: string;
}

/** The conversation files (.json, .yaml, .yml) directly in `dir`, sorted by name, each read and counted. */
export function listConversationFiles(dir: string, tokenizer?: Tokenizer): DirectoryEntry[] {
  const names = readdirSync(dir).sort();
  const out: DirectoryEntry[] = [];
  for (const fileName of names) {
    const format = formatFromPath(fileName);
    if (!format) continue;
    const file = join(dir, fileName);
    let stat;
    try {
      stat = statSync(file);
    } catch {
      continue; // vanished between readdir and stat
    }
    if (!stat.isFile()) continue;
    const entry: DirectoryEntry = {
      name: basename(fileName, extname(fileName)),
      file,
      format,
      bytes: stat.size,
      modified: stat.mtime,
    };
    try {
      const parsed = readConversationFile(file, { format });
      entry.messages = parsed.messages.length;
      if (tokenizer) entry.tokens = parsed.messages.reduce((n, m) => n + sentTokens(m, tokenizer).tokens, 0);
    } catch (e) {
      entry.error = e instanceof ConversationFileError ? e.message : `${file}: ${(e as Error).message}`;
    }
    out.push(entry);
  }
  return out;
}
