import { statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { ConversationFileError } from '../../../src/core/formats/errors.js';
import { walkConversationTree } from '../../../src/core/storage/list-directory.js';
import type { DirEntry } from '../../shared/contract.js';
import type { Handlers } from '../dispatch.js';
import { viewOf } from '../documents.js';
import type { HandlerContext } from './context.js';
import { textsOf } from './conversation.js';

const VERSION = '0.1.0';

interface Cached {
  mtimeMs: number;
  size: number;
  model: string;
  entry: DirEntry;
}

/** The folder's tree of conversation files, with a stat-validated cache so re-listing reads only what changed. */
export function directoryHandlers(ctx: HandlerContext): Pick<Handlers, 'dir:list' | 'app:info'> {
  const cache = new Map<string, Cached>();

  async function describe(file: string, path: string, model: string): Promise<DirEntry | undefined> {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size && hit.model === model) return hit.entry;
    const entry: DirEntry = { path, name: basename(file, extname(file)), bytes: stat.size, modified: stat.mtimeMs };
    try {
      const doc = ctx.documents.get(file);
      entry.format = doc.codec.id;
      entry.formatLabel = doc.codec.label;
      entry.conversations = doc.conversations.length;
      if (doc.conversations.length > 1) entry.titles = doc.file.doc.conversations.map((c, i) => c.title ?? `conversation ${i + 1}`);
      entry.messages = doc.conversations.reduce((n, c) => n + c.records.length, 0);
      entry.other = doc.file.doc.otherRecords;
      let tokens = 0;
      for (const c of doc.conversations) {
        const views = c.records.map((r) => viewOf(doc.codec, r));
        const { parts, blocks } = textsOf(doc, c.records, views, false);
        // The same figure the open file shows: everything the model is sent.
        const result = await ctx.tokens.count({ model, parts, blocks }, () => {});
        tokens += result.tokens.reduce((a, b) => a + b, 0);
      }
      entry.tokens = tokens;
    } catch (e) {
      if (e instanceof ConversationFileError) {
        entry.error = e.reason;
        entry.errorLine = e.line;
        entry.errorColumn = e.column;
      } else entry.error = (e as Error).message;
    }
    cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, model, entry });
    return entry;
  }

  return {
    'app:info': () => ({ roots: ctx.roots.all(), mode: ctx.mode, version: VERSION, service: ctx.service }),
    'dir:list': async ({ root }) => {
      const dir = ctx.roots.root(root);
      const model = ctx.settings.get().model;
      const tree = walkConversationTree(dir);
      const entries: DirEntry[] = [];
      for (const f of tree.files) {
        const entry = await describe(f.file, f.path, model);
        if (entry) entries.push(entry);
      }
      return { root: dir, entries, truncated: tree.truncated, tooDeep: tree.tooDeep };
    },
  };
}
