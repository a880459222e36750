import { DIFF_LIMIT_BYTES, versionDiff } from '../editing/version-diff.js';
import { conversationModel } from '../documents/counting-model.js';
import { storedCountEncoding, type StoredCounts } from '../editing/stored-counts.js';
import { basename, extname } from 'node:path';
import { readFileSync } from 'node:fs';
import { describeEdit, EditError, type EditCommand } from '../../../src/core/editing/commands.js';
import { applyToConversation, fileRecords, fileSideOf, historyOf, replaceFileRecords, stepHistory } from '../documents/conversation-views.js';
import { duplicateRecord, recordForMessage } from '../../../src/core/editing/records.js';
import { timestampBetween } from '../../../src/core/editing/timestamps.js';
import { mergeRecords, settle, wordDiff } from '../../../src/core/editing/merge.js';
import { sentText } from '../../../src/core/formats/model.js';
import { ConversationFileError } from '../../../src/core/formats/errors.js';
import { decodeText } from '../../../src/core/formats/read.js';
import { parseDocumentText } from '../../../src/core/formats/document-file.js';
import { codecById } from '../../../src/core/formats/registry.js';
import { getTokenizer } from '../../../src/core/tokenizer/index.js';
import { isPlainObject, markDerived, type Message } from '../../../src/core/message.js';
import type { EditCommandInput, EditState } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import { isDirty, viewOf, type OpenConversation, type OpenDocument } from '../documents/documents.js';
import { DamagedVersionError, NoSuchVersionError, type LocalHistory } from '../editing/local-history.js';
import { stateFailure } from '../state/state-errors.js';
import { liveOf } from '../editing/live.js';
import { exportText, saveDocument, TRANSCRIPT_FORMATS, type SaveOutcome } from '../editing/save.js';
import type { HandlerContext } from './context.js';
import { swarmsCodec } from '../documents/skeleton.js';
import type { ConversationState } from './conversation-state.js';
import { documentWithEdits, openConversation, openDocument } from './open-document.js';
import { checkVersion, editVersion, whileSaving } from '../documents/edit-version.js';

/** An undo or redo is of the asking window's own edit: another window's is that window's to take back. */
function checkOrigin(conv: OpenConversation, step: 'undo' | 'redo', window: string | undefined, display: string): void {
  const history = historyOf(conv);
  const by = history.originOf(step);
  if (!window || !by || by === window) return;
  const label = step === 'undo' ? history.canUndo : history.canRedo;
  throw new HandlerError('STALE', `${display}: the last edit${label ? ` (${label})` : ''} was made in another window: ${step === 'undo' ? 'Undo' : 'Redo'} was not done here. Take it back in that window, or edit it here.`);
}

/** A message the renderer sends ({role, content}) as a record of the document's format. */
/** A record for a message typed in the app, timed between its neighbours where the format keeps times. */
function recordFor(doc: OpenDocument, m: Record<string, unknown>, near: unknown, timestamp: string | undefined): Message {
  if (swarmsCodec(doc)) {
    // A swarms file keeps times only when its conversation was made with them: a message put among timed ones gets one.
    const timed = isPlainObject(near) && typeof near.timestamp === 'string';
    return (timed && timestamp !== undefined && m.timestamp === undefined ? { ...m, timestamp } : m) as Message;
  }
  return recordForMessage(doc.codec, m, near, timestamp) as Message;
}

// The file's own stored-count encoding, found once per conversation opened (from the records as read).
const storedRules = new WeakMap<OpenConversation, StoredCounts | null>();
function storedRuleOf(conv: OpenConversation, model: string): StoredCounts | undefined {
  let rule = storedRules.get(conv);
  if (rule === undefined) storedRules.set(conv, (rule = storedCountEncoding(conv.records, getTokenizer(model).encoding) ?? null));
  return rule ?? undefined;
}

/** What an edited message's token_count is counted with: the file's own encoding where it has one, else the model's. */
export const recounter = (conv: OpenConversation, model: string) => getTokenizer(storedRuleOf(conv, model)?.encoding ?? model);

function toCommand(doc: OpenDocument, conv: OpenConversation, input: EditCommandInput, model: string): EditCommand {
  const records = conv.records;
  const check = (i: number) => {
    if (i >= records.length) throw new HandlerError('BAD_INPUT', `message ${i} does not exist (${records.length} messages)`);
  };
  switch (input.type) {
    case 'update': {
      if (!swarmsCodec(doc)) throw new HandlerError('BAD_INPUT', `${doc.codec.label} records are edited by their text or as a whole record`);
      const before = records[input.index];
      // A stored token_count must not go stale: an edited content is recounted, as Conversation.update does.
      if (before && 'content' in input.patch && typeof before.token_count === 'number' && !('token_count' in input.patch)) {
        return { ...input, patch: { ...input.patch, token_count: recounter(conv, model).countContent(input.patch.content) } } as EditCommand;
      }
      return input as EditCommand;
    }
    case 'set-text': {
      check(input.index);
      const before = records[input.index];
      let next: unknown;
      if (swarmsCodec(doc) && isPlainObject(before) && typeof before.token_count === 'number') {
        next = { ...before, content: input.text, token_count: recounter(conv, model).countContent(input.text) };
        markDerived(next as object, before);
      } else next = doc.codec.withText(before, input.text);
      if (next === undefined) throw new HandlerError('BAD_INPUT', `message ${input.index} has no single text to edit here; edit the whole record instead`);
      if (doc.codec.vanishes?.(next)) return { type: 'delete', indexes: [input.index] };
      return { type: 'set', items: [{ index: input.index, message: next as Message }] };
    }
    case 'replace': {
      check(input.index);
      const next = input.record as Message;
      if (swarmsCodec(doc) && (typeof next.role !== 'string' || next.role === '')) throw new HandlerError('BAD_INPUT', 'a message needs a role');
      try {
        doc.codec.view(next);
      } catch (e) {
        throw new HandlerError('BAD_INPUT', `not a ${doc.codec.label} record: ${(e as Error).message}`);
      }
      markDerived(next, records[input.index]);
      if (doc.codec.vanishes?.(next)) return { type: 'delete', indexes: [input.index] };
      return { type: 'set', items: [{ index: input.index, message: next }] };
    }
    case 'insert': {
      const near = records[Math.max(0, Math.min(records.length - 1, input.index - 1))];
      const timeAt = (i: number) => (i >= 0 && i < records.length ? viewOf(doc.codec, records[i]).timestamp : undefined);
      const before = timeAt(input.index - 1);
      const after = timeAt(input.index);
      const n = input.messages.length;
      return { type: 'insert', index: input.index, messages: input.messages.map((m, k) => recordFor(doc, m, near, timestampBetween(before, after, k, n))) };
    }
    case 'duplicate': {
      // Duplicates go right after the last of the selected messages, as copies (new objects).
      const sorted = [...new Set(input.indexes)].sort((a, b) => a - b);
      sorted.forEach(check);
      return { type: 'insert', index: sorted[sorted.length - 1] + 1, messages: sorted.map((i) => duplicateRecord(doc.codec, records[i]) as Message) };
    }
    default:
      return input as EditCommand;
  }
}

/**
 * A local-history version's bytes, checked against the hash it was saved with; an id that is no version's is
 * BAD_INPUT, one not kept NOT_FOUND, and what the disk refused IO: the folder's path named by none of them.
 */
function versionBytes(history: LocalHistory, doc: OpenDocument, id: string, display: string): Buffer {
  try {
    return history.read(doc.path, id);
  } catch (e) {
    if (e instanceof NoSuchVersionError) throw new HandlerError(e.malformed ? 'BAD_INPUT' : 'NOT_FOUND', `${e.message} of ${display}`);
    if (e instanceof DamagedVersionError) throw new HandlerError('IO', e.message);
    throw stateFailure(e, `the saved version ${id} of ${display} could not be read`);
  }
}

/** A local-history version's conversations, its bytes checked against the hash it was saved with. */
function readVersion(history: LocalHistory, doc: OpenDocument, id: string, display: string): Message[][] {
  const bytes = versionBytes(history, doc, id, display);
  const opened = parseDocumentText(decodeText(bytes, `local history ${id}`), doc.path, doc.codec.id);
  return opened.doc.conversations.map((c) => c.records as Message[]);
}

/** Said when the file's counts are in another encoding than the model picked: edits keep the file's. */
function storedCountsNote(ctx: HandlerContext, doc: OpenDocument, conv: OpenConversation | undefined) {
  // Only once an edit has asked (the first recount): a state is never what loads an encoder.
  if (!conv || !storedRules.has(conv)) return {};
  const model = conversationModel(ctx, doc, conv);
  const rule = storedRuleOf(conv, model);
  const picked = getTokenizer(model).encoding;
  return rule && rule.encoding !== picked ? { storedCounts: { encoding: rule.encoding, picked, matches: rule.matches, sampled: rule.sampled } } : {};
}

/** Where a conversation's editing stands. */
function stateOf(ctx: HandlerContext, doc: OpenDocument, conversation: number): EditState {
  const conv = doc.conversations[conversation] ?? doc.conversations[0];
  const live = liveOf(doc, ctx.saving?.writers ?? undefined);
  return {
    path: ctx.roots.display(doc.path),
    conversation,
    version: editVersion(doc),
    count: conv?.records.length ?? 0,
    dirty: isDirty(doc),
    conflict: doc.conflict,
    canUndo: conv?.history.canUndo,
    canRedo: conv?.history.canRedo,
    ...storedCountsNote(ctx, doc, conv),
    ...(live ? { live } : {}),
  };
}

/**
 * The edit state after a change (`changed`: every window is told, and the delta from the skeleton last shown
 * comes with it), or as it is.
 */
export async function editStateOf(ctx: HandlerContext, conversations: ConversationState, doc: OpenDocument, conversation: number, changed: boolean): Promise<EditState> {
  const state = stateOf(ctx, doc, conversation);
  if (!changed) return state;
  const delta = await conversations.changesSinceShown(doc.path, doc, conversation);
  // Told once the delta is made: a window that asks for the change then gets it as a delta too.
  ctx.emit('conversation:changed', { path: state.path, version: state.version });
  return { ...state, delta };
}

/** Editing: commands applied in main, undo/redo, save (atomic, in the file's style), Save As, Revert, Export. */
export function editingHandlers(ctx: HandlerContext & { localHistory?: LocalHistory }, conversations: ConversationState): Pick<
  Handlers,
  'edit:apply' | 'edit:undo' | 'edit:redo' | 'edit:state' | 'edit:save' | 'edit:cancel-save' | 'edit:save-as' | 'edit:revert' | 'edit:export' | 'history:list' | 'history:restore' | 'history:diff' | 'edit:compare' | 'edit:merge-preview' | 'edit:merge'
> {
  const line = (m: unknown) => JSON.stringify(m);
  const state = (doc: OpenDocument, conversation: number): EditState => stateOf(ctx, doc, conversation);
  /** Saves under way, by file: a request to cancel marks one, which stops before it replaces anything. */
  const saving = new Map<string, { cancelled: boolean; done: Promise<void> }>();
  const changed = (doc: OpenDocument, conversation: number): Promise<EditState> => editStateOf(ctx, conversations, doc, conversation, true);

  return {
    'edit:apply': ({ path, conversation, version, command, window }) => {
      const { doc, conv } = openConversation(ctx, path, conversation);
      if (doc.codec.readOnly) throw new HandlerError('FORBIDDEN', `${doc.codec.label} is read-only here: ${doc.codec.readOnly}`);
      checkVersion(doc, version, ctx.roots.display(doc.path), 'the edit');
      try {
        const edit = toCommand(doc, conv, command, conversationModel(ctx, doc, conv));
        applyToConversation(doc.conversations, conv, edit, doc.codec, doc.file.doc, describeEdit(edit), window);
      } catch (e) {
        if (e instanceof EditError) throw new HandlerError('BAD_INPUT', e.message);
        throw e;
      }
      return changed(doc, conversation);
    },
    'edit:undo': ({ path, conversation, version, window }) => {
      const { doc, conv } = openConversation(ctx, path, conversation);
      checkVersion(doc, version, ctx.roots.display(doc.path), 'Undo');
      checkOrigin(conv, 'undo', window, ctx.roots.display(doc.path));
      stepHistory(doc.conversations, conv, 'undo', doc.codec, doc.file.doc);
      return changed(doc, conversation);
    },
    'edit:redo': ({ path, conversation, version, window }) => {
      const { doc, conv } = openConversation(ctx, path, conversation);
      checkVersion(doc, version, ctx.roots.display(doc.path), 'Redo');
      checkOrigin(conv, 'redo', window, ctx.roots.display(doc.path));
      stepHistory(doc.conversations, conv, 'redo', doc.codec, doc.file.doc);
      return changed(doc, conversation);
    },
    'edit:state': ({ path, conversation }) => state(openConversation(ctx, path, conversation).doc, conversation),
    'edit:save': async ({ path, version, force, acceptProblems }) => {
      const { doc } = openDocument(ctx, path);
      if (doc.file.readOnly) throw new HandlerError('FORBIDDEN', `not saved in place: ${doc.file.readOnly}`);
      const display = ctx.roots.display(doc.path);
      // One save of a file at a time: a second waits for the first (it may be waiting for a writer to let go).
      const earlier = saving.get(doc.path)?.done;
      let finish = () => {};
      const job = { cancelled: false, done: new Promise<void>((resolve) => (finish = resolve)) };
      saving.set(doc.path, job);
      let outcome: SaveOutcome;
      try {
        await earlier;
        // Only what this window has shown is written: not another window's edits it has not seen.
        checkVersion(doc, version, display, 'the save');
        outcome = await whileSaving(doc, () => saveDocument(doc, { force, acceptProblems, history: ctx.localHistory, displayPath: display, progress: (p) => ctx.emit('save:progress', { path: display, ...p }), cancelled: () => job.cancelled, ...ctx.saving }));
      } finally {
        if (saving.get(doc.path) === job) saving.delete(doc.path);
        finish();
      }
      const state = await changed(doc, 0);
      conversations.noteListing(doc.path, doc);
      return { ...state, ...outcome };
    },
    'edit:cancel-save': ({ path }) => {
      const job = saving.get(ctx.roots.resolve(path));
      if (job) job.cancelled = true;
      return { cancelling: job !== undefined };
    },
    'edit:save-as': async ({ path, target, version }) => {
      // Edits whose file was swapped for a link out of the folders are still written here (to a file inside).
      const { doc } = documentWithEdits(ctx, path);
      if (version !== undefined) checkVersion(doc, version, ctx.roots.display(doc.path), 'Save As');
      if (doc.codec.readOnly) throw new HandlerError('FORBIDDEN', `${doc.codec.label} is read-only here: convert it (Export) for an editable copy`);
      const absoluteTarget = ctx.roots.resolve(target);
      if (!doc.codec.extensions.includes(extname(absoluteTarget).toLowerCase())) {
        throw new HandlerError('BAD_INPUT', `Save As keeps the format: give the new name the ${doc.codec.extensions.join(' or ')} extension (or use Export)`);
      }
      await saveDocument(doc, { target: absoluteTarget, displayPath: ctx.roots.display(absoluteTarget) });
      return { target: ctx.roots.display(absoluteTarget) };
    },
    'edit:revert': ({ path, version }) => {
      const { absolute, doc } = openDocument(ctx, path);
      // Edits made in another window since this one showed the document are never dropped unseen.
      checkVersion(doc, version, ctx.roots.display(doc.path), 'Reload');
      return changed(ctx.documents.reload(absolute), 0);
    },
    'history:list': ({ path }) => {
      const { doc } = openDocument(ctx, path);
      const history = ctx.localHistory;
      if (!history) return { versions: [] };
      let kept;
      try {
        kept = history.list(doc.path);
      } catch (e) {
        throw stateFailure(e, `the earlier versions of ${path} could not be listed`);
      }
      return {
        versions: kept.map((v) => {
          try {
            return { ...v, messages: readVersion(history, doc, v.id, path).reduce((n, c) => n + c.length, 0) };
          } catch (e) {
            return { ...v, error: (e as Error).message };
          }
        }),
      };
    },
    'history:diff': ({ path, id }) => {
      const { doc } = openDocument(ctx, path);
      const history = ctx.localHistory;
      if (!history) throw new HandlerError('NOT_FOUND', 'no local history is kept here');
      const before = versionBytes(history, doc, id, path);
      let now: Buffer;
      try {
        now = readFileSync(doc.path);
      } catch (e) {
        throw new HandlerError('IO', `${path} cannot be read: ${(e as Error).message}`);
      }
      if (before.length > DIFF_LIMIT_BYTES || now.length > DIFF_LIMIT_BYTES) return { lines: [], added: 0, removed: 0, tooLarge: true };
      return { ...versionDiff(decodeText(before, `local history ${id}`), decodeText(now, path)), tooLarge: false };
    },
    'history:restore': ({ path, id, version }) => {
      const { doc } = openDocument(ctx, path);
      checkVersion(doc, version, ctx.roots.display(doc.path), 'the restore');
      if (!ctx.localHistory) throw new HandlerError('NOT_FOUND', 'no local history is kept here');
      let versions: Message[][];
      try {
        versions = readVersion(ctx.localHistory, doc, id, path);
      } catch (e) {
        if (e instanceof ConversationFileError) throw new HandlerError('IO', e.message);
        throw e;
      }
      const label = `restore the version of ${new Date(Number.parseInt(id, 10)).toLocaleString()}`;
      versions.forEach((records, i) => replaceFileRecords(doc.conversations, i, records, label, doc.codec, doc.file.doc));
      return changed(doc, 0);
    },
    'edit:compare': ({ path, conversation }) => {
      const { doc, conv } = openConversation(ctx, path, conversation);
      const side = fileSideOf(doc.conversations, conv);
      const mine = side.records.map(line);
      try {
        const disk = parseDocumentText(decodeText(readFileBytes(doc.path), doc.path), doc.path, doc.codec.id);
        return { mine, theirs: (disk.doc.conversations[side.file]?.records ?? []).map(line) };
      } catch (e) {
        return { mine, theirs: [], theirsError: (e as Error).message };
      }
    },
    'edit:merge-preview': ({ path }) => {
      const { doc } = openDocument(ctx, path);
      let disk: Message[][];
      try {
        disk = parseDocumentText(decodeText(readFileBytes(doc.path), doc.path), doc.path, doc.codec.id).doc.conversations.map((c) => c.records as Message[]);
      } catch (e) {
        return { applied: 0, onDisk: { added: 0, changed: 0, removed: 0 }, conflicts: [], theirsError: (e as Error).message };
      }
      let applied = 0;
      const onDisk = { added: 0, changed: 0, removed: 0 };
      const conflicts: Array<{ conversation: number; index: number; mine?: string; theirs?: string; words: Array<{ text: string; side?: 'mine' | 'theirs' }> }> = [];
      fileRecordsWithSaved(doc).forEach(({ records, saved }, ci) => {
        const r = mergeRecords(saved, records, disk[ci] ?? []);
        applied += r.applied;
        onDisk.added += r.onDisk.added;
        onDisk.removed += r.onDisk.removed;
        onDisk.changed += r.onDisk.changed;
        for (const k of r.conflicts) {
          const text = (x: unknown) => (x === undefined ? undefined : sentText(viewOf(doc.codec, x)));
          const mine = text(k.mine);
          const theirs = text(k.theirs);
          conflicts.push({ conversation: ci, index: k.index, mine, theirs, words: wordDiff(theirs ?? '', mine ?? '') });
        }
      });
      return { applied, onDisk, conflicts };
    },
    'edit:merge': async ({ path, version, choices }) => {
      const { doc: before, absolute } = openDocument(ctx, path);
      checkVersion(before, version, ctx.roots.display(before.path), 'the merge');
      const mine = fileRecordsWithSaved(before).map(({ records, saved }) => ({ base: saved, records }));
      let doc: OpenDocument;
      try {
        doc = ctx.documents.reload(absolute);
      } catch (e) {
        throw new HandlerError('IO', `${path} cannot be read from disk to merge with: ${(e as Error).message}. Your edits are kept.`);
      }
      let k = 0;
      fileRecords(doc.conversations).forEach((theirs, ci) => {
        const side = mine[ci];
        if (!side) return;
        const r = mergeRecords(side.base, side.records, theirs);
        const merged = settle(r, choices.slice(k, k + r.conflicts.length)) as Message[];
        k += r.conflicts.length;
        replaceFileRecords(doc.conversations, ci, merged, 'merge my edits onto the file on disk', doc.codec, doc.file.doc);
      });
      return changed(doc, 0);
    },
    'edit:export': ({ path, conversation, format }) => {
      const { doc, conv } = openConversation(ctx, path, conversation);
      const target = codecById(format === 'json' ? 'swarms-json' : format === 'yaml' ? 'swarms-yaml' : format);
      if (!target && !(TRANSCRIPT_FORMATS as readonly string[]).includes(format)) throw new HandlerError('BAD_INPUT', `unknown export format "${format}"`);
      const ext = format === 'markdown' ? 'md' : format === 'text' ? 'txt' : target!.extensions[0].slice(1);
      const mime = format === 'markdown' ? 'text/markdown' : format === 'text' ? 'text/plain' : target!.syntax === 'yaml' ? 'application/yaml' : target!.syntax === 'markdown' ? 'text/markdown' : 'application/json';
      const suffix = doc.conversations.length > 1 ? `-${conversation + 1}` : '';
      return { filename: `${basename(doc.path, extname(doc.path))}${suffix}.${ext}`, text: exportText(doc.codec, conv.records, format), mime };
    },
  };
}

/** Each conversation of the file with its records as last read or written (for a merge's base). */
function fileRecordsWithSaved(doc: OpenDocument): Array<{ records: Message[]; saved: Message[] }> {
  const out: Array<{ records: Message[]; saved: Message[] }> = [];
  for (const c of doc.conversations) {
    const side = fileSideOf(doc.conversations, c);
    out[side.file] ??= { records: side.records, saved: side.saved };
  }
  return out;
}

function readFileBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    throw new HandlerError('NOT_FOUND', `${path} is not on disk`);
  }
}
