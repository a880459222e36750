import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { ConversationFileError } from '../../../src/core/formats/errors.js';
import { formatFromPath } from '../../../src/core/formats/read.js';
import { contentText } from '../../../src/core/message.js';
import { toolCallText } from '../../../src/core/window/tool-links.js';
import type { DirEntry } from '../../shared/contract.js';
import type { Handlers } from '../dispatch.js';
import type { HandlerContext } from './context.js';

const VERSION = '0.1.0';

interface Cached {
  mtimeMs: number;
  size: number;
  model: string;
  entry: DirEntry;
}

/** Directory listing, with a stat-validated cache so re-listing after a change reads only what changed. */
export function directoryHandlers(ctx: HandlerContext): Pick<Handlers, 'dir:list' | 'app:info'> {
  const cache = new Map<string, Cached>();

  async function describe(file: string, model: string): Promise<DirEntry | undefined> {
    const format = formatFromPath(file);
    if (!format) return undefined;
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size && hit.model === model) return hit.entry;
    const entry: DirEntry = { path: ctx.roots.display(file), name: basename(file, extname(file)), format, bytes: stat.size, modified: stat.mtimeMs };
    try {
      const { messages } = ctx.documents.get(file);
      entry.messages = messages.length;
      const texts = messages.map((m) => contentText(m.content));
      // The same figure the open file shows: content and tool calls, what the model is sent.
      const result = await ctx.tokens.count({ model, texts, tools: messages.map(toolCallText), blocks: texts.map(() => '') }, () => {});
      entry.tokens = result.tokens.reduce((a, b) => a + b, 0);
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
      const entries: DirEntry[] = [];
      for (const name of readdirSync(dir).sort()) {
        const entry = await describe(join(dir, name), model);
        if (entry) entries.push(entry);
      }
      return { root: dir, entries };
    },
  };
}
