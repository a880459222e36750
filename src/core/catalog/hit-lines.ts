import { closeSync, openSync, readSync } from 'node:fs';
import { codecById } from '../formats/registry.js';
import { reasoningText, sentText } from '../formats/model.js';
import { readableOf, searchableMessages } from '../search/searchable.js';
import type { Snippet } from '../search/snippet.js';
import { readableSnippet, type Matcher } from '../search/hits.js';
import type { Codec, ConversationDocument } from '../formats/codec.js';
import type { CatalogHit } from './store.js';

/** The text search sees of a message (what it says, its calls and results, its reasoning), and the same as a reader reads it. */
function textsOf(codec: Codec, record: unknown): Texts {
  const v = codec.view(record);
  const reasoning = reasoningText(v);
  const sent = sentText(v);
  const searched = reasoning ? `${sent}\n${reasoning}` : sent;
  return { searched, readable: readableOf(v, searched) ?? searched };
}

interface Texts {
  searched: string;
  readable: string;
}

/**
 * The texts of found messages, read as cheaply as the file allows: a record's own line where the catalog knows
 * its bytes (a session log), else the file parsed once for all its hits. Undefined for a message that is no
 * longer there (the file changed since it was catalogued).
 */
export class HitTexts {
  /**
   * `readWhole` reads a file whose hits have no line of their own (document-file's readDocumentFile). Without it,
   * such a hit's text is undefined and its file is kept in `unread`: a search whose hits all have their lines
   * loads no format's reader but theirs, and reads the others once it has loaded them all (`readWith`).
   */
  constructor(private readWhole?: (file: string) => { codec: Codec; doc: ConversationDocument }) {}

  /** Files with hits that needed reading whole, asked for before there was a reader for them. */
  readonly unread = new Set<string>();

  readWith(readWhole: (file: string) => { codec: Codec; doc: ConversationDocument }): void {
    this.readWhole = readWhole;
  }

  private readonly parsed = new Map<string, Map<string, Texts> | undefined>();
  /** The file whose lines were read last, kept open: a file's hits come together, each file is opened once. */
  private held: { path: string; fd: number } | undefined;

  private readLine(file: string, [start, end]: [number, number]): string {
    if (this.held?.path !== file) {
      this.close();
      this.held = { path: file, fd: openSync(file, 'r') };
    }
    const buf = Buffer.allocUnsafe(end - start);
    const n = readSync(this.held.fd, buf, 0, buf.length, start);
    return buf.subarray(0, n).toString('utf8');
  }

  /** Closes the file held open (the texts can still be asked for: it is opened again). */
  close(): void {
    if (this.held) closeSync(this.held.fd);
    this.held = undefined;
  }

  /**
   * The line a found message shows: around the match in its text as a reader reads it (a tool call's values, not
   * its JSON), or in the text as searched where only that holds it (a word of a JSON key). Undefined when the
   * message is gone or no longer says it.
   */
  snippet(hit: CatalogHit, matcher: Matcher): Snippet | undefined {
    const texts = this.texts(hit);
    const found = texts && matcher(texts.searched);
    return found ? readableSnippet(texts.searched, found, texts.readable, matcher) : undefined;
  }

  private texts(hit: CatalogHit): Texts | undefined {
    if (hit.bytes && hit.format) {
      const codec = codecById(hit.format);
      if (codec) {
        try {
          return textsOf(codec, JSON.parse(this.readLine(hit.path, hit.bytes)));
        } catch {
          // The line moved (the file changed): the file is read whole below.
        }
      }
    }
    let texts = this.parsed.get(hit.path);
    if (!this.readWhole) {
      this.unread.add(hit.path);
      return undefined;
    }
    if (!this.parsed.has(hit.path)) {
      try {
        const { codec, doc } = this.readWhole(hit.path);
        texts = new Map(searchableMessages(codec, doc).messages.map((m) => [`${m.conversation}:${m.index}`, { searched: m.text, readable: m.readable ?? m.text }]));
      } catch {
        texts = undefined;
      }
      this.parsed.set(hit.path, texts);
    }
    return texts?.get(`${hit.conversation}:${hit.index}`);
  }
}
