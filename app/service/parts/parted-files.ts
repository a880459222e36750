import { closeSync, openSync, readSync } from 'node:fs';
import { parseDocumentBytes, type OpenedFile } from '../../../src/core/formats/document-file.js';
import { candidates, codecById } from '../../../src/core/formats/registry.js';
import { filePartsOf, readPart, type FilePart } from '../../../src/core/storage/file-parts.js';

/** A part of a file read a part at a time is about this big (a 107 MB line makes its part longer). */
export const PART_BYTES = 96 * 1024 * 1024;

const HEAD = 1 << 16;

/** The format a file's head sniffs as (its first 64 KB; the listing tells it the same way). */
export function headFormat(file: string, size: number): string | undefined {
  const fd = openSync(file, 'r');
  let head: string;
  try {
    const buf = Buffer.alloc(Math.min(size, HEAD));
    head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('latin1').replace(/^\xEF\xBB\xBF/, '');
  } finally {
    closeSync(fd);
  }
  return candidates(file, head)[0]?.id;
}

/** Whether a file of this format too big to read whole is read a part at a time: a log whose lines are one conversation's records. */
export function readsInParts(format: string | undefined): boolean {
  const codec = format === undefined ? undefined : codecById(format);
  return codec !== undefined && codec.syntax === 'jsonl' && codec.capabilities.conversations === 'one';
}

/** One part of such a file, read as a file of its own in the format of the file's head. */
export function readPartDocument(file: string, part: FilePart, format: string): OpenedFile {
  return parseDocumentBytes(readPart(file, part), file, format);
}

/** A file too big to read whole, as it is read: its format (its head's, unless known) and its parts; undefined when it is not read in parts. */
export function partsToRead(file: string, size: number, partBytes: number, format = headFormat(file, size)): { format: string; parts: FilePart[] } | undefined {
  if (format === undefined || !readsInParts(format)) return undefined;
  return { format, parts: filePartsOf(file, size, partBytes) };
}
