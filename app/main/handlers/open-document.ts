import { HandlerError } from '../../shared/errors.js';
import type { OpenConversation, OpenDocument } from '../documents.js';
import type { HandlerContext } from './context.js';

/** The open document behind a renderer path: confined to the roots; a missing file or a folder is said plainly. */
export function openDocument(ctx: HandlerContext, path: string): { absolute: string; doc: OpenDocument } {
  const absolute = ctx.roots.resolve(path);
  try {
    return { absolute, doc: ctx.documents.get(absolute) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new HandlerError('NOT_FOUND', `${path} does not exist (any more)`);
    if (code === 'EISDIR') throw new HandlerError('BAD_INPUT', `${path} is a folder, not a conversation file`);
    throw e;
  }
}

/** One conversation of an open document (0 for files that hold one). */
export function openConversation(ctx: HandlerContext, path: string, conversation = 0): { absolute: string; doc: OpenDocument; conv: OpenConversation } {
  const { absolute, doc } = openDocument(ctx, path);
  const conv = doc.conversations[conversation];
  if (!conv) throw new HandlerError('NOT_FOUND', `${path} holds ${doc.conversations.length} conversation${doc.conversations.length === 1 ? '' : 's'}; there is no conversation ${conversation}`);
  return { absolute, doc, conv };
}
