import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readDocumentFile } from '../formats/document-file.js';
import { oneLine } from '../util/one-line.js';
import { maskedLine } from '../secrets/mask-line.js';

/**
 * The name a tool keeps for a session in a file beside it (Copilot CLI's `workspace.yaml` beside its
 * `events.jsonl`): what the session list titles it by (the catalog's session_names), for what shows one
 * session alone (a shared transcript). Undefined where there is none, or it does not read.
 */
export function sessionNameBeside(file: string): string | undefined {
  if (basename(file) !== 'events.jsonl') return undefined;
  const beside = join(dirname(file), 'workspace.yaml');
  if (!existsSync(beside)) return undefined;
  try {
    const { codec, doc } = readDocumentFile(beside);
    for (const c of doc.conversations)
      for (const r of c.records) {
        const named = codec.sessionName?.(r);
        if (named) return oneLine(maskedLine(named.name), 120);
      }
  } catch {
    // Half written, or not the tool's: the session is titled by its own words.
  }
  return undefined;
}
