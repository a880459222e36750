import { basename, extname } from 'node:path';
import { lstatSync } from 'node:fs';
import { walkConversationTree, type OutsideLink, type TreeFile } from '../../../src/core/storage/list-directory.js';
import { OUTSIDE_LINK_NOTE } from '../../../src/core/storage/confine.js';
import type { DirEntry } from '../../shared/contract.js';
import type { Handlers } from '../dispatch.js';
import { readListed, summarizeHead, summarizeWhole, WHOLE_READ_LIMIT } from '../listing/file-summary.js';
import { findingFigures, foundKeysOf } from '../listing/file-findings.js';
import type { FoundKeys } from '../listing/listing-cache.js';
import { partPath, partTitle } from '../../../src/core/storage/file-parts.js';
import type { HandlerContext } from './context.js';
import { nextTurn } from '../next-turn.js';
import { countingModel } from '../../../src/core/models.js';

const VERSION = '0.1.0';

/** What `app:info` answers: fixed for the life of a runtime (its folders are given when it starts). */
export function appInfo(roots: readonly string[], mode: 'electron' | 'browser', service: 'worker' | 'in-process') {
  return { roots: roots.slice(), mode, version: VERSION, service };
}

/** A link leading out of the opened folders, as the sidebar lists it: its name and when the link was made, nothing of its target. */
export function outsideEntry(l: OutsideLink): DirEntry {
  let modified = 0;
  try {
    modified = Math.round(lstatSync(l.link).mtimeMs);
  } catch {
    // gone meanwhile: listed as it was seen
  }
  return { path: l.path, name: basename(l.path, extname(l.path)), bytes: 0, modified, outside: true, ...(l.folder ? { folder: true } : {}), error: OUTSIDE_LINK_NOTE };
}

const BATCH = 250;
const BATCH_MS = 80;


/**
 * The folder's tree, answered from `stat` alone (plus what the listing cache already knows); formats and
 * counts follow as `dir:details` events, first from each file's head (its bytes scanned, not parsed), then
 * from whole reads of every file up to 8 MB, smallest first; then what each holds of secrets and personal data.
 * Nothing is tokenised here: token totals are those of files already counted.
 */
export function directoryHandlers(ctx: HandlerContext): Pick<Handlers, 'dir:list' | 'app:info'> {
  let generation = 0;

  const entryOf = (f: TreeFile, picked: string): DirEntry => {
    const mtime = f.modified.getTime();
    const entry: DirEntry = { path: f.path, name: basename(f.path, extname(f.path)), bytes: f.bytes, modified: mtime };
    const known = ctx.listing.summary(f.file, f.bytes, mtime);
    if (known) Object.assign(entry, known.summary);
    // The totals kept are those counted for the model the file is counted for (its session's, by default).
    const model = countingModel(picked, known?.summary.model);
    const parts = ctx.documents.partsOf(f.file, f.bytes, mtime, entry.format);
    if (parts) entry.parts = parts.map((p) => ({ path: partPath(f.path, p.number), title: partTitle(p, parts.length) }));
    const tokens = ctx.listing.tokens(f.file, f.bytes, mtime, model);
    if (tokens !== undefined) entry.tokens = tokens;
    const each = ctx.listing.conversationTokens(f.file, f.bytes, mtime, model);
    if (each) entry.conversationTokens = each;
    const found = ctx.listing.findings(f.file, f.bytes, mtime);
    if (found) Object.assign(entry, findingFigures(ctx, f.file, found));
    if (!known || (!known.whole && f.bytes <= WHOLE_READ_LIMIT)) entry.pending = true;
    return entry;
  };

  async function fill(gen: number, root: string, files: TreeFile[], model: string): Promise<void> {
    let batch: DirEntry[] = [];
    let since = performance.now();
    const send = async (force = false) => {
      if (batch.length === 0 || (!force && batch.length < BATCH && performance.now() - since < BATCH_MS)) return;
      ctx.emit('dir:details', { root, entries: batch });
      batch = [];
      since = performance.now();
      // Requests waiting behind the listing (the file the user just clicked) go first.
      await nextTurn();
    };
    const wholeLater: TreeFile[] = [];
    for (const f of files) {
      if (gen !== generation) return;
      const mtime = f.modified.getTime();
      const known = ctx.listing.summary(f.file, f.bytes, mtime);
      if (!known) {
        ctx.listing.setSummary(f.file, f.bytes, mtime, summarizeHead(f.file, f.bytes), false);
        batch.push(entryOf(f, model));
      }
      if (!known?.whole && f.bytes <= WHOLE_READ_LIMIT) wholeLater.push(f);
      await send();
    }
    await send(true);
    // Small files first: most rows get their exact counts (or their errors) soonest.
    wholeLater.sort((a, b) => a.bytes - b.bytes);
    for (const f of wholeLater) {
      if (gen !== generation) return;
      const mtime = f.modified.getTime();
      ctx.listing.setSummary(f.file, f.bytes, mtime, summarizeWhole(f.file), true);
      batch.push(entryOf(f, model));
      await send();
    }
    await send(true);
    // Then what each file holds of secrets and personal data (the sidebar's badge), kept like the counts.
    for (const f of files) {
      if (gen !== generation) return;
      const mtime = f.modified.getTime();
      if (f.bytes > WHOLE_READ_LIMIT || ctx.listing.findings(f.file, f.bytes, mtime) || ctx.listing.summary(f.file, f.bytes, mtime)?.summary.error) continue;
      let found: FoundKeys = { secret: [], personal: [] };
      try {
        const { doc } = readListed(f.file);
        found = await foundKeysOf(doc, doc.conversations.map((c) => c.records), () => gen !== generation);
      } catch {
        if (gen !== generation) return;
        // unreadable now (changed meanwhile): its next listing looks again
        continue;
      }
      ctx.listing.setFindings(f.file, f.bytes, mtime, found);
      if (found.secret.length + found.personal.length > 0) batch.push(entryOf(f, model));
      await send();
      await nextTurn();
    }
    await send(true);
  }

  return {
    'app:info': () => appInfo(ctx.roots.all(), ctx.mode, ctx.service),
    'dir:list': ({ root }) => {
      const dir = ctx.roots.root(root);
      const model = ctx.settings.get().model;
      const tree = walkConversationTree(dir, { within: ctx.roots.all() });
      ctx.listing.rememberWalk(dir, tree.files);
      const entries = [...tree.files.map((f) => entryOf(f, model)), ...tree.outside.map(outsideEntry)];
      const gen = ++generation;
      if (entries.some((e) => e.pending) || tree.files.some((f) => f.bytes <= WHOLE_READ_LIMIT && !ctx.listing.findings(f.file, f.bytes, f.modified.getTime()))) {
        // After this answer is sent; a newer listing stops this one.
        setImmediate(() => {
          fill(gen, dir, tree.files, model).catch(() => {});
        });
      }
      return { root: dir, entries, truncated: tree.truncated, tooDeep: tree.tooDeep };
    },
  };
}
