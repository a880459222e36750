import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { baselineAfterWrite, serializeConversation } from '../../../src/core/formats/write.js';
import type { FileFormat } from '../../../src/core/formats/types.js';
import type { Message } from '../../../src/core/message.js';
import { roleContentLine } from '../../../src/core/render.js';
import { writeFileAtomicSync } from '../../../src/core/storage/atomic-write.js';
import { HandlerError } from '../../shared/errors.js';
import type { OpenDocument } from '../documents.js';
import type { LocalHistory } from './local-history.js';

function diskChanged(doc: OpenDocument): boolean {
  try {
    const stat = statSync(doc.path);
    if (stat.mtimeMs === doc.fingerprint.mtimeMs && stat.size === doc.fingerprint.size) return false;
    return createHash('sha256').update(readFileSync(doc.path)).digest('hex') !== doc.fingerprint.hash;
  } catch {
    return false; // gone: saving recreates it
  }
}

function ioError(e: unknown, path: string): HandlerError {
  const code = (e as NodeJS.ErrnoException).code;
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied (the file or its folder is read-only or locked)'
      : code === 'EROFS'
        ? 'the file system is read-only'
        : code === 'ENOSPC'
          ? 'the disk is full'
          : code === 'ENOENT'
            ? 'its folder no longer exists'
            : (e as Error).message;
  return new HandlerError('IO', `${path} was not saved: ${why}. Your edits are kept; try Save As.`);
}

/**
 * Saves a document atomically in its own style. Refuses (CONFLICT) when the file changed on disk since it
 * was read, unless `force` (Keep mine). The version on disk goes to local history first.
 */
export function saveDocument(doc: OpenDocument, options: { force?: boolean; history?: LocalHistory; target?: string; displayPath: string }): void {
  const target = options.target ?? doc.path;
  if (!options.target && !options.force && (doc.conflict || diskChanged(doc))) {
    doc.conflict = true;
    throw new HandlerError('CONFLICT', `${options.displayPath} changed on disk since it was opened. Reload (discard your edits), Keep mine (overwrite), or Save As.`);
  }
  const { format, shape, root, baseline } = doc.parsed;
  const text = serializeConversation(doc.messages, { format, shape, root, baseline: target === doc.path ? baseline : undefined });
  try {
    if (target === doc.path) options.history?.record(doc.path);
    writeFileAtomicSync(target, text);
  } catch (e) {
    throw ioError(e, options.displayPath);
  }
  if (target !== doc.path) return;
  // The text just written is the new baseline; the live message objects map onto its elements.
  doc.parsed = baselineAfterWrite(text, doc.path, format, doc.messages);
  doc.saved = doc.messages.slice();
  const stat = statSync(doc.path);
  doc.fingerprint = { mtimeMs: stat.mtimeMs, size: stat.size, hash: createHash('sha256').update(text).digest('hex') };
  doc.mtimeMs = stat.mtimeMs;
  doc.size = stat.size;
  doc.conflict = false;
}

export type ExportFormat = 'json' | 'yaml' | 'markdown' | 'text';

/** The history as another format: JSON and YAML as files of that kind, Markdown as a transcript, text as `role: content`. */
export function exportText(messages: readonly Message[], format: ExportFormat): string {
  if (format === 'json' || format === 'yaml') return serializeConversation(messages, { format: format as FileFormat });
  if (format === 'text') return messages.map((m) => roleContentLine(m) + '\n').join('');
  return (
    messages
      .map((m, i) => {
        const head = `### ${i} · ${m.role}${typeof m.timestamp === 'string' ? ` · ${m.timestamp}` : ''}`;
        const body = typeof m.content === 'string' ? m.content : '```json\n' + JSON.stringify(m.content, null, 2) + '\n```';
        return `${head}\n\n${body}\n`;
      })
      .join('\n') + ''
  );
}
