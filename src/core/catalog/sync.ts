import { statSync, type Stats } from 'node:fs';
import { appendToFile, type OpenedFile } from '../formats/document-file.js';
import { decodeText } from '../formats/read.js';
import { factsOf, lineBytesOf } from './facts.js';
import { FolderSync, sameStamp, stampOf } from './folder-sync.js';
import { endHashOf, readForCatalog, readRange } from './read-file.js';
import { inlineReaders, type Readers } from './readers.js';
import type { Catalog, CatalogedFile } from './store.js';

export { stampOf, type SyncOptions, type SyncProgress } from './folder-sync.js';

/**
 * Keeps the catalog of a set of folders: a file unchanged since it was catalogued (size, mtime, inode) is not
 * read; one an agent appends to is read from where it was left (its earlier bytes unchanged, their hash says);
 * any other change is read whole; a file gone is dropped. Files are read by `readers` (threads of their own
 * where the build has them) while this thread writes what they found.
 */
export class CatalogSync extends FolderSync {
  /** Files an agent is writing, parsed: the next append reads only what it adds. */
  private readonly live = new Map<string, { opened: OpenedFile; size: number; counts: number[] }>();
  private liveBytes = 0;

  constructor(
    catalog: Catalog,
    readers: Readers = inlineReaders,
    /** How many bytes of files the append cache may hold parsed (a parsed file takes several times its size). */
    private readonly liveLimit = 32 * 1024 * 1024,
  ) {
    super(catalog, readers);
  }

  protected override dropped(file: string): void {
    this.forgetLive(file);
    super.dropped(file);
  }

  /**
   * Brings one file up to date (a watcher's report) on this thread: an append to a file it holds parsed reads
   * only the new lines; any other change reads the file whole and holds it parsed for its next append. False
   * when it was up to date.
   */
  update(file: string): boolean {
    let st: Stats;
    try {
      st = statSync(file);
    } catch {
      this.forget(file);
      return true;
    }
    const known = this.catalog.fileState(file);
    if (known && !known.partial && sameStamp(known, stampOf(st))) return false;
    return this.catalog.transaction(() => {
      if (known && this.appended(file, st, known)) return true;
      this.forgetLive(file);
      const read = readForCatalog(file, st.size, true);
      if (read.opened && read.opened.codec.append && read.opened.codec.syntax === 'jsonl') this.keepLive(file, read.opened, read.bytes);
      this.write(file, stampOf(st), read);
      return true;
    });
  }

  forget(file: string): void {
    this.forgetLive(file);
    this.catalog.transaction(() => this.catalog.drop(file));
  }

  private forgetLive(file: string): boolean {
    const had = this.live.get(file);
    if (had) this.liveBytes -= had.size;
    this.live.delete(file);
    return false;
  }

  private keepLive(file: string, opened: OpenedFile, size: number): void {
    this.forgetLive(file);
    if (size > this.liveLimit / 2) return;
    this.live.set(file, { opened, size, counts: opened.doc.conversations.map((c) => c.records.length) });
    this.liveBytes += size;
    // The one written to longest ago goes first.
    for (const [k, v] of this.live) {
      if (this.liveBytes <= this.liveLimit) break;
      this.live.delete(k);
      this.liveBytes -= v.size;
    }
  }

  /** Reads only what was appended to a file whose known bytes are unchanged; false when it was not an append. */
  private appended(file: string, st: Stats, known: CatalogedFile): boolean {
    const live = this.live.get(file);
    if (!live || st.ino !== known.ino || st.size <= known.readBytes || live.size !== known.readBytes) return false;
    // A file read while its last line was half written is read again whole once that line is done.
    const before = (live.opened.doc.baseline as { lines?: { lines: unknown[]; partialTail?: number } } | undefined)?.lines;
    if (!before || before.partialTail !== undefined) return false;
    if (!known.endHash || endHashOf(file, known.readBytes) !== known.endHash) return false;
    const bytes = readRange(file, known.readBytes, st.size);
    // Only whole lines: an agent mid-line is read again when it finishes it.
    const end = bytes.lastIndexOf(0x0a) + 1;
    if (end === 0) return false;
    const again = appendToFile(live.opened, decodeText(bytes.subarray(0, end), file), file);
    if (!again) return false;
    // The lines the append added are numbered after those read before.
    const facts = factsOf(file, again, live.counts, { lines: lineBytesOf(bytes.subarray(0, end), known.readBytes, before.lines.length) });
    const readBytes = known.readBytes + end;
    // Stamped at what was read: a line still being written makes the file differ, and is read when whole.
    this.catalog.putAppended(file, { ...stampOf(st), size: readBytes }, facts, { messages: live.counts }, { bytes: readBytes, endHash: endHashOf(file, readBytes) });
    this.live.delete(file);
    this.live.set(file, { opened: again, size: readBytes, counts: again.doc.conversations.map((c) => c.records.length) });
    this.liveBytes += readBytes - live.size;
    return true;
  }
}
