import type { ConversationDocument } from '../../../src/core/formats/codec.js';
import { findingsOfRecords } from '../../../src/core/secrets/record-findings.js';
import { scanOtherRecords } from '../../../src/core/secrets/document-scan.js';
import type { DirEntry } from '../../shared/contract.js';
import type { FoundKeys } from './listing-cache.js';
import type { HandlerContext } from '../handlers/context.js';

/**
 * What a scan of a whole file found, as the listing keeps it: each finding's key (rule and hash, never the
 * text), secrets apart from personal data. `records`: the file's messages, by its conversations.
 */
export async function foundKeysOf(doc: ConversationDocument, records: ReadonlyArray<readonly unknown[]>, cancelled?: () => boolean): Promise<FoundKeys> {
  const found: FoundKeys = { secret: [], personal: [] };
  for (const list of records) {
    const per = await findingsOfRecords(list, undefined, cancelled);
    // Each once per message (a tool's output kept twice in one record is one finding), as the rows count them.
    for (const fs of per) for (const f of new Map(fs.map((x) => [x.key, x])).values()) if (f.kind !== 'path') found[f.kind].push(f.key);
  }
  // Paths and user names are not counted in the sidebar: a session's every line says where it ran.
  const others = new Map((await scanOtherRecords(doc)).map((f) => [`${'line' in f.where ? f.where.line : ''}:${f.key}`, f]));
  for (const f of others.values()) if (f.kind !== 'path') found[f.kind].push(f.key);
  return found;
}

/** The sidebar's figures of a file: what its scan found, less what the user dismissed in it. */
export function findingFigures(ctx: HandlerContext, absolute: string, found: FoundKeys): Pick<DirEntry, 'secrets' | 'personal'> {
  const dismissed = ctx.dismissed.of(absolute);
  const left = (keys: readonly string[]) => (dismissed.size === 0 ? keys.length : keys.reduce((n, k) => n + (dismissed.has(k) ? 0 : 1), 0));
  return { secrets: left(found.secret), personal: left(found.personal) };
}
