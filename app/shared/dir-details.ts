import type { DirEntry } from './contract.js';

/** The listed entries with newer details put in by path; entries no longer listed are not brought back. Pure. */
export function withDetails(entries: readonly DirEntry[], details: readonly DirEntry[]): DirEntry[] {
  const byPath = new Map(details.map((d) => [d.path, d]));
  return entries.map((e) => {
    const d = byPath.get(e.path);
    // A file that changed since it was read keeps its newer listing; its details come again.
    return d && d.bytes === e.bytes && d.modified === e.modified ? d : e;
  });
}
