import { closeSync, openSync, readSync } from 'node:fs';
import { readDocumentFile } from '../formats/document-file.js';
import { codecById } from '../formats/registry.js';
import { reasoningText, sentText } from '../formats/model.js';
import { searchableMessages } from '../search/searchable.js';
import type { Codec } from '../formats/codec.js';
import type { CatalogHit } from './store.js';

/** The text search sees of a message: what it says, its calls and results, its reasoning. */
function searchedText(codec: Codec, record: unknown): string {
  const v = codec.view(record);
  const reasoning = reasoningText(v);
  const sent = sentText(v);
  return reasoning ? `${sent}\n${reasoning}` : sent;
}

function readLine(file: string, [start, end]: [number, number]): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(end - start);
    const n = readSync(fd, buf, 0, buf.length, start);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The texts of found messages, read as cheaply as the file allows: a record's own line where the catalog knows
 * its bytes (a session log), else the file parsed once for all its hits. Undefined for a message that is no
 * longer there (the file changed since it was catalogued).
 */
export class HitTexts {
  private readonly parsed = new Map<string, Map<string, string> | undefined>();

  text(hit: CatalogHit): string | undefined {
    if (hit.bytes && hit.format) {
      const codec = codecById(hit.format);
      if (codec) {
        try {
          return searchedText(codec, JSON.parse(readLine(hit.path, hit.bytes)));
        } catch {
          // The line moved (the file changed): the file is read whole below.
        }
      }
    }
    let texts = this.parsed.get(hit.path);
    if (!this.parsed.has(hit.path)) {
      try {
        const { codec, doc } = readDocumentFile(hit.path);
        texts = new Map(searchableMessages(codec, doc).messages.map((m) => [`${m.conversation}:${m.index}`, m.text]));
      } catch {
        texts = undefined;
      }
      this.parsed.set(hit.path, texts);
    }
    return texts?.get(`${hit.conversation}:${hit.index}`);
  }
}
