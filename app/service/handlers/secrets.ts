import { basename, extname } from 'node:path';
import { conversationModel, fileModel } from '../documents/counting-model.js';
import { findingsOfRecords, type RecordFinding } from '../../../src/core/secrets/record-findings.js';
import { scanOtherRecords } from '../../../src/core/secrets/document-scan.js';
import { masked } from '../../../src/core/secrets/document-scan.js';
import { redactValue } from '../../../src/core/secrets/redact.js';
import { isPlainObject, markDerived, type Message } from '../../../src/core/message.js';
import type { Finding } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import { isDirty, type OpenDocument } from '../documents/documents.js';
import { applyToConversation, fileRecords, fileSideOf, replaceFileRecords } from '../documents/conversation-views.js';
import { findingFigures, foundKeysOf } from '../listing/file-findings.js';
import { swarmsCodec } from '../documents/skeleton.js';
import type { HandlerContext } from './context.js';
import type { ConversationState } from './conversation-state.js';
import { openConversation, openDocument } from './open-document.js';
import { editStateOf, recounter } from './editing.js';
import { carryRedaction } from '../editing/scrub.js';
import { checkStill, checkVersion } from '../documents/edit-version.js';
import { stateFailure } from '../state/state-errors.js';

/** Whether a finding lies in a reasoning block the API signed (Claude's `thinking` with its `signature`). */
function signedBlock(record: unknown, where: ReadonlyArray<string | number>): boolean {
  let at: unknown = record;
  for (const k of where.slice(0, -1)) at = isPlainObject(at) || Array.isArray(at) ? (at as Record<string | number, unknown>)[k] : undefined;
  return isPlainObject(at) && typeof at.signature === 'string' && at.signature !== '' && (at.type === 'thinking' || at.type === 'redacted_thinking');
}

/** Findings listed at most per conversation (a row past them still says it has some, by its index). */
const LIST_LIMIT = 20_000;

const fieldOf = (path: ReadonlyArray<string | number>) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '') || '(the record)';

/**
 * Secrets and personal data in the open conversations: found per record (an edit has only its new records
 * looked into), dismissed per file and finding, redacted as one undoable edit.
 */
export function secretsHandlers(ctx: HandlerContext, conversations: ConversationState): Pick<Handlers, 'secrets:list' | 'secrets:dismiss' | 'secrets:redact'> {
  /** What the sidebar says of a file read whole and unchanged: its figures from all its records. */
  const noteFile = async (absolute: string, doc: OpenDocument) => {
    if (isDirty(doc)) return;
    const { size, mtimeMs } = doc;
    const found = await foundKeysOf(doc.file.doc, fileRecords(doc.conversations));
    if (isDirty(doc) || doc.size !== size || doc.mtimeMs !== mtimeMs) return;
    ctx.listing.setFindings(absolute, size, mtimeMs, found);
    emitFigures(absolute, size, mtimeMs);
  };
  const emitFigures = (absolute: string, size: number, mtime: number) => {
    const found = ctx.listing.findings(absolute, size, mtime);
    const summary = ctx.listing.summary(absolute, size, mtime)?.summary;
    if (!found || !summary) return;
    const path = ctx.roots.display(absolute);
    const tokens = ctx.listing.tokens(absolute, size, mtime, fileModel(ctx, summary.model));
    ctx.emit('dir:details', { root: ctx.roots.root(), entries: [{ ...summary, path, name: basename(path, extname(path)), bytes: size, modified: Math.round(mtime), ...(tokens !== undefined ? { tokens } : {}), ...findingFigures(ctx, absolute, found) }] });
  };

  return {
    'secrets:list': async ({ path, conversation }) => {
      const { absolute, doc, conv } = openConversation(ctx, path, conversation);
      const records = conv.records;
      const per = await findingsOfRecords(records);
      const dismissed = ctx.dismissed.of(absolute);
      const findings: Finding[] = [];
      let truncated = false;
      per.forEach((list, index) => {
        for (const f of list) {
          if (findings.length >= LIST_LIMIT) {
            truncated = true;
            return;
          }
          findings.push({ index, rule: f.rule, label: f.label, kind: f.kind, field: fieldOf(f.where), key: f.key, excerpt: masked(f.value), value: f.value, dismissed: dismissed.has(f.key) });
        }
      });
      const elsewhere = (await scanOtherRecords(doc.file.doc)).filter((f) => !dismissed.has(f.key)).length;
      // The sidebar learns the file's figures from here too (a file too big for the listing's own scan).
      void noteFile(absolute, doc).catch(() => {});
      return { findings, truncated, elsewhere };
    },
    'secrets:dismiss': ({ path, keys, dismissed }) => {
      const { absolute, doc } = openDocument(ctx, path);
      try {
        ctx.dismissed.set(absolute, keys, dismissed);
      } catch (e) {
        throw stateFailure(e, `${dismissed ? 'the dismissal' : 'bringing the findings back'} was not kept`);
      }
      const found = ctx.listing.findings(absolute, doc.size, doc.mtimeMs);
      if (found) emitFigures(absolute, doc.size, doc.mtimeMs);
      const figures = found ? findingFigures(ctx, absolute, found) : { secrets: 0, personal: 0 };
      return { secrets: figures.secrets ?? 0, personal: figures.personal ?? 0 };
    },
    'secrets:redact': async ({ path, conversation, version, indexes }) => {
      const { absolute, doc, conv } = openConversation(ctx, path, conversation);
      if (doc.codec.readOnly) throw new HandlerError('FORBIDDEN', `${doc.codec.label} is read-only here: redact in an export instead (Share…), or convert it for an editable copy`);
      const display = ctx.roots.display(absolute);
      checkVersion(doc, version, display, 'the redaction');
      // Redacting all takes in every record of the file's conversation: the other threads, sub-agents and what
      // came before a compaction too, not only the path on screen.
      const side = fileSideOf(doc.conversations, conv);
      const records = indexes ? conv.records : side.records;
      const which = indexes ?? records.map((_, i) => i);
      for (const i of which) if (i >= records.length) throw new HandlerError('BAD_INPUT', `message ${i} does not exist (${records.length} messages)`);
      const per = await findingsOfRecords(which.map((i) => records[i]));
      const dismissed = ctx.dismissed.of(absolute);
      const model = conversationModel(ctx, doc, conv);
      const items: Array<{ index: number; message: Message }> = [];
      let redacted = 0;
      let signed = 0;
      which.forEach((index, k) => {
        // Paths and user names stay in the file (a session's cwd is where the tool resumes it): a share replaces them.
        const kept: RecordFinding[] = per[k].filter((f) => !dismissed.has(f.key) && f.kind !== 'path');
        if (kept.length === 0) return;
        redacted += kept.length;
        signed += new Set(kept.filter((f) => signedBlock(records[index], f.where)).map((f) => f.where.slice(0, -1).join('.'))).size;
        const before = records[index];
        let next = redactValue(before, kept.map((f) => ({ path: f.where, start: f.start, end: f.end, rule: f.rule })));
        // A swarms message's stored token_count follows its content, as any edit of it does.
        if (swarmsCodec(doc) && isPlainObject(next) && isPlainObject(before) && typeof before.token_count === 'number' && next.content !== before.content) {
          const recounted = { ...next, token_count: recounter(conv, model).countContent(next.content) };
          markDerived(recounted, before);
          next = recounted;
        }
        items.push({ index, message: next });
      });
      if (items.length === 0) return { ...(await editStateOf(ctx, conversations, doc, conversation, false)), redacted: 0 };
      const others = indexes ? [] : await scanOtherRecords(doc.file.doc);
      // The scans took a while: what they found is of the records as they were then.
      checkStill(ctx.documents.peek(absolute), doc, version, display, 'the redaction');
      const label = `redact ${redacted} finding${redacted === 1 ? '' : 's'} in ${items.length} message${items.length === 1 ? '' : 's'}`;
      if (indexes) {
        applyToConversation(doc.conversations, conv, { type: 'set', items }, doc.codec, doc.file.doc, label);
      } else {
        // Redacting all: what was found goes from the file's other records as well when it is saved (the
        // values those records share with the messages, and their own findings).
        const values = new Map<string, string>();
        which.forEach((_, k) => per[k].forEach((f) => !dismissed.has(f.key) && f.kind !== 'path' && values.set(f.value, f.rule)));
        for (const f of others) if (!dismissed.has(f.key) && f.kind !== 'path') values.set(f.value, f.rule);
        carryRedaction(items.map((x) => x.message), values);
        const next = records.slice();
        for (const { index, message } of items) next[index] = message;
        replaceFileRecords(doc.conversations, side.file, next, label, doc.codec, doc.file.doc);
      }
      return { ...(await editStateOf(ctx, conversations, doc, conversation, true)), redacted, ...(signed > 0 ? { signed } : {}) };
    },
  };
}
