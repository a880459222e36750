import { readDocumentFile } from '../formats/document-file.js';
import { DEFAULT_MAX_FILE_BYTES } from '../formats/types.js';
import { scanDocument } from '../secrets/document-scan.js';

/**
 * The secrets in each conversation of a file, by the rules the app's secrets panel applies (personal data and
 * paths are not counted here; dismissals are the user's, per window, not the catalog's). A secret in a record that
 * is not a message (a file's header) is counted in each of its conversations. -1 for each conversation of a file
 * that cannot be looked into (too big to read whole, or no longer readable): never "no secrets".
 */
export async function secretsOfFile(file: string, size: number): Promise<number[]> {
  if (size > DEFAULT_MAX_FILE_BYTES) return [-1];
  try {
    const { doc } = readDocumentFile(file);
    const counts = doc.conversations.map(() => 0);
    let others = 0;
    for (const f of await scanDocument(doc)) {
      if (f.kind !== 'secret') continue;
      if ('other' in f.where) others++;
      else counts[f.where.conversation]++;
    }
    return counts.length === 0 ? [others] : counts.map((n) => n + others);
  } catch {
    return [-1];
  }
}
