import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { HandlerError } from '../../shared/errors.js';
import { inside } from '../roots.js';
import type { Codec } from '../../../src/core/formats/codec.js';
import { codecWithRoles, mergeRoles, rolesOf, type RoleDeclaration } from '../../../src/core/formats/roles.js';
import { isDirty, type OpenConversation, type OpenDocument } from '../documents/documents.js';
import type { HandlerContext } from './context.js';

/**
 * The roles a file is read with: what it declares, then what the user set for it. A change makes the
 * document's codec (and so its views and skeleton) anew.
 */
function withRoleOverrides(ctx: HandlerContext, absolute: string, doc: OpenDocument): OpenDocument {
  const set = ctx.settings.get().roleOverrides?.[absolute] ?? {};
  const overrides: RoleDeclaration[] = Object.entries(set).map(([role, normalRole]) => ({ role, normalRole, from: 'your setting' }));
  const base = (doc.file.codec as { base?: Codec }).base ?? doc.file.codec;
  const declared = rolesOf(doc.file.codec).filter((d) => d.from !== 'your setting');
  const key = JSON.stringify(overrides);
  const seen = (doc as { rolesKey?: string }).rolesKey;
  if (seen === key) return doc;
  (doc as { rolesKey?: string }).rolesKey = key;
  // As read, a document has the file's own declarations: nothing to make anew.
  if (seen === undefined && overrides.length === 0) return doc;
  const codec = codecWithRoles(base, mergeRoles(declared, overrides));
  doc.codec = codec;
  doc.file = { ...doc.file, codec };
  return doc;
}

/** The open document behind a renderer path: confined to the roots; a missing file or a folder is said plainly. */
export function openDocument(ctx: HandlerContext, path: string): { absolute: string; doc: OpenDocument } {
  const absolute = ctx.roots.resolve(path);
  try {
    return { absolute, doc: withRoleOverrides(ctx, absolute, ctx.documents.get(absolute)) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new HandlerError('NOT_FOUND', `${path} does not exist (any more)`);
    if (code === 'EISDIR') throw new HandlerError('BAD_INPUT', `${path} is a folder, not a conversation file`);
    throw e;
  }
}

/**
 * The open document behind a path, or, when the path now leads out of the opened folders (its file was swapped
 * for a link to elsewhere), the document with unsaved edits still held under its name: those edits stay
 * reachable (Save As writes them inside the folders). Nothing is read through the link.
 */
export function documentWithEdits(ctx: HandlerContext, path: string): { absolute: string; doc: OpenDocument } {
  try {
    return openDocument(ctx, path);
  } catch (e) {
    if (!(e instanceof HandlerError) || e.code !== 'FORBIDDEN') throw e;
    const held = heldUnder(ctx, path);
    if (!held) throw e;
    return held;
  }
}

/** The document with unsaved edits held under a path's own name (its folder resolved, not the file itself). */
function heldUnder(ctx: HandlerContext, path: string): { absolute: string; doc: OpenDocument } | undefined {
  if (path.includes('\0')) return undefined;
  const named = isAbsolute(path) ? resolve(path) : resolve(ctx.roots.root(), path);
  let absolute: string;
  try {
    absolute = join(realpathSync(dirname(named)), basename(named));
  } catch {
    return undefined;
  }
  if (!ctx.roots.all().some((r) => inside(r, absolute) && r !== absolute)) return undefined;
  const doc = ctx.documents.peek(absolute);
  return doc && isDirty(doc) ? { absolute, doc } : undefined;
}

/** One conversation of an open document (0 for files that hold one). */
export function openConversation(ctx: HandlerContext, path: string, conversation = 0): { absolute: string; doc: OpenDocument; conv: OpenConversation } {
  const { absolute, doc } = openDocument(ctx, path);
  const conv = doc.conversations[conversation];
  if (!conv) throw new HandlerError('NOT_FOUND', `${path} holds ${doc.conversations.length} conversation${doc.conversations.length === 1 ? '' : 's'}; there is no conversation ${conversation}`);
  return { absolute, doc, conv };
}
