import { join } from 'node:path';
import { Catalog } from '../core/catalog/store.js';
import { FolderSync, type SyncProgress } from '../core/catalog/folder-sync.js';
import { defaultReaders, inlineReaders } from '../core/catalog/readers.js';
import { ensurePrivateDir, userStateDir } from '../core/storage/private-dir.js';

const n = (x: number) => x.toLocaleString('en');

/**
 * The catalog the app keeps too (in the private state folder), brought up to date with `dir` before it answers:
 * files unchanged since they were catalogued are not read; what is read again is said on stderr. Undefined when
 * there is no catalog to be had (the state folder refused, say): the caller reads the files itself.
 */
export async function freshCatalog(dir: string, opts: { depth?: number; upTo?: 'listed' | 'all' } = {}): Promise<{ catalog: Catalog; sync: SyncProgress } | undefined> {
  let catalog: Catalog;
  try {
    catalog = Catalog.open(join(ensurePrivateDir(userStateDir()), 'catalog.sqlite'));
  } catch (e) {
    process.stderr.write(`note: no catalog (${(e as Error).message}); reading every file\n`);
    return undefined;
  }
  const started = performance.now();
  const readers = defaultReaders();
  // Files read on this thread (from source, with no reader threads built) may be databases.
  if (readers === inlineReaders) await (await import('../core/formats/containers/index.js')).formatsReady([dir]);
  let sync: SyncProgress;
  try {
    sync = await new FolderSync(catalog, readers).syncFolders([dir], { depth: opts.depth, upTo: opts.upTo });
  } finally {
    readers.close();
  }
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  const skimmed = sync.skimmed ?? 0;
  if (opts.upTo === 'listed' && skimmed > 0) {
    const whole = sync.read > 0 ? ` and ${n(sync.read)} read whole` : '';
    process.stderr.write(`catalog: listed ${n(skimmed)} file${skimmed === 1 ? '' : 's'} from their usage lines${whole} in ${secs} s (the next search reads them whole)\n`);
    return { catalog, sync };
  }
  if (catalog.fresh && sync.read > 0) process.stderr.write(`catalog: built from ${n(sync.read)} file${sync.read === 1 ? '' : 's'} in ${secs} s (kept for next time)\n`);
  else if (sync.read > 0 || sync.dropped > 0) {
    const before = sync.listedBefore ?? 0;
    const changed = sync.read - before;
    const gone = sync.dropped ? `, dropped ${n(sync.dropped)} gone` : '';
    if (before === 0) process.stderr.write(`catalog: read ${n(changed)} new or changed file${changed === 1 ? '' : 's'} of ${n(sync.total)}${gone} (${secs} s)\n`);
    else process.stderr.write(`catalog: read ${n(before)} file${before === 1 ? '' : 's'} whole for search (listed before from their usage lines)${changed > 0 ? ` and ${n(changed)} new or changed` : ''}, of ${n(sync.total)}${gone} (${secs} s)\n`);
  }
  return { catalog, sync };
}
