import { realpathSync, statSync } from 'node:fs';
import { writersOf, type FileWriter, type WritersFound } from '../../../src/core/storage/file-writers.js';
import type { EditState } from '../../shared/contract.js';
import type { OpenDocument } from '../documents/documents.js';

/** A file that grew by appends this recently is being written. */
export const APPENDING_MS = 60_000;
/** Who has a file open is looked up at most this often per document (a scan of /proc is not free). */
export const WRITERS_EVERY_MS = 10_000;

/** Looks up who has the document's file open for writing (remembered on the document); undefined where not known. */
export async function lookUpWriters(doc: OpenDocument, writers: ((file: { path: string; dev: number; ino: number }) => Promise<WritersFound | undefined>) | false = writersOf): Promise<FileWriter[] | undefined> {
  if (writers === false) return undefined;
  let found: WritersFound | undefined;
  try {
    const path = realpathSync(doc.path);
    const st = statSync(path);
    found = await writers({ path, dev: st.dev, ino: st.ino });
  } catch {
    return undefined;
  }
  if (found) doc.writers = { pids: found.writers, at: Date.now() };
  return found?.writers;
}

/**
 * Whether another program is writing the document's file, as far as is known: appends seen lately, and who had
 * it open for writing when last looked (looked up again, now and then, while it is being appended to).
 */
export function liveOf(doc: OpenDocument, writers: Parameters<typeof lookUpWriters>[1]): EditState['live'] {
  const now = Date.now();
  const appending = doc.appendedAt !== undefined && now - doc.appendedAt < APPENDING_MS;
  if (appending && writers !== false && (!doc.writers || now - doc.writers.at > WRITERS_EVERY_MS)) {
    // Not waited for: the next state says what it finds.
    doc.writers = { pids: doc.writers?.pids ?? [], at: now };
    void lookUpWriters(doc, writers);
  }
  const pids = doc.writers && now - doc.writers.at < APPENDING_MS ? doc.writers.pids : [];
  if (!appending && pids.length === 0) return undefined;
  return { ...(appending ? { appendedAt: doc.appendedAt } : {}), writers: pids };
}
