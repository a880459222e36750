import { basename, extname } from 'node:path';
import { EditError, type EditCommand } from '../../../src/core/editing/commands.js';
import { readConversationFile } from '../../../src/core/formats/read.js';
import { getTokenizer } from '../../../src/core/tokenizer/index.js';
import type { Message } from '../../../src/core/message.js';
import type { EditCommandInput, EditState } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import { isDirty, type OpenDocument } from '../documents.js';
import { DamagedVersionError, type LocalHistory } from '../editing/local-history.js';
import { ConversationFileError } from '../../../src/core/formats/errors.js';
import { decodeText, parseConversationText } from '../../../src/core/formats/read.js';
import { exportText, saveDocument } from '../editing/save.js';
import type { HandlerContext } from './context.js';
import { openDocument } from './open-document.js';

function toCommand(doc: OpenDocument, input: EditCommandInput, model: string): EditCommand {
  if (input.type === 'update') {
    const before = doc.messages[input.index];
    // A stored token_count must not go stale: an edited content is recounted, as Conversation.update does.
    if (before && 'content' in input.patch && typeof before.token_count === 'number' && !('token_count' in input.patch)) {
      return { ...input, patch: { ...input.patch, token_count: getTokenizer(model).countContent(input.patch.content) } } as EditCommand;
    }
  }
  if (input.type !== 'duplicate') return input as EditCommand;
  // Duplicates go right after the last of the selected messages, as copies (new objects).
  const sorted = [...new Set(input.indexes)].sort((a, b) => a - b);
  const copies = sorted.map((i) => {
    if (i >= doc.messages.length) throw new HandlerError('BAD_INPUT', `message ${i} does not exist`);
    return structuredClone(doc.messages[i]);
  });
  return { type: 'insert', index: sorted[sorted.length - 1] + 1, messages: copies };
}

/** A local-history version's messages, its bytes checked against the hash it was saved with. */
function readVersion(history: LocalHistory, doc: OpenDocument, id: string): Message[] {
  const bytes = history.read(doc.path, id);
  return parseConversationText(decodeText(bytes, `local history ${id}`), `local history ${id}`, doc.parsed.format).messages;
}

/** Editing: commands applied in main, undo/redo, save (atomic, in the file's style), Save As, Revert, Export. */
export function editingHandlers(ctx: HandlerContext & { localHistory?: LocalHistory }): Pick<
  Handlers,
  'edit:apply' | 'edit:undo' | 'edit:redo' | 'edit:state' | 'edit:save' | 'edit:save-as' | 'edit:revert' | 'edit:export' | 'history:list' | 'history:restore' | 'edit:compare'
> {
  const line = (m: Message) => JSON.stringify(m);
  const docFor = (path: string) => openDocument(ctx, path);
  const state = (doc: OpenDocument): EditState => ({
    path: ctx.roots.display(doc.path),
    count: doc.messages.length,
    dirty: isDirty(doc),
    conflict: doc.conflict,
    canUndo: doc.history.canUndo,
    canRedo: doc.history.canRedo,
  });
  const changed = (doc: OpenDocument) => {
    ctx.emit('conversation:changed', { path: ctx.roots.display(doc.path) });
    return state(doc);
  };

  return {
    'edit:apply': ({ path, command }) => {
      const { doc } = docFor(path);
      try {
        doc.messages = doc.history.apply(doc.messages, toCommand(doc, command, ctx.settings.get().model));
      } catch (e) {
        if (e instanceof EditError) throw new HandlerError('BAD_INPUT', e.message);
        throw e;
      }
      return changed(doc);
    },
    'edit:undo': ({ path }) => {
      const { doc } = docFor(path);
      const next = doc.history.undo(doc.messages);
      if (next) doc.messages = next;
      return changed(doc);
    },
    'edit:redo': ({ path }) => {
      const { doc } = docFor(path);
      const next = doc.history.redo(doc.messages);
      if (next) doc.messages = next;
      return changed(doc);
    },
    'edit:state': ({ path }) => state(docFor(path).doc),
    'edit:save': ({ path, force }) => {
      const { doc } = docFor(path);
      saveDocument(doc, { force, history: ctx.localHistory, displayPath: ctx.roots.display(doc.path) });
      return changed(doc);
    },
    'edit:save-as': ({ path, target }) => {
      const { doc } = docFor(path);
      const absoluteTarget = ctx.roots.resolve(target);
      if (extname(absoluteTarget).toLowerCase() !== extname(doc.path).toLowerCase()) {
        throw new HandlerError('BAD_INPUT', `Save As keeps the format: give the new name the ${extname(doc.path)} extension (or use Export)`);
      }
      saveDocument(doc, { target: absoluteTarget, displayPath: ctx.roots.display(absoluteTarget) });
      return { target: ctx.roots.display(absoluteTarget) };
    },
    'edit:revert': ({ path }) => {
      const { absolute } = docFor(path);
      return changed(ctx.documents.reload(absolute));
    },
    'history:list': ({ path }) => {
      const { doc } = docFor(path);
      const history = ctx.localHistory;
      if (!history) return { versions: [] };
      return {
        versions: history.list(doc.path).map((v) => {
          try {
            return { ...v, messages: readVersion(history, doc, v.id).length };
          } catch (e) {
            return { ...v, error: (e as Error).message };
          }
        }),
      };
    },
    'history:restore': ({ path, id }) => {
      const { doc } = docFor(path);
      if (!ctx.localHistory) throw new HandlerError('NOT_FOUND', 'no local history is kept here');
      let messages: Message[];
      try {
        messages = readVersion(ctx.localHistory, doc, id);
      } catch (e) {
        if (e instanceof DamagedVersionError || e instanceof ConversationFileError) throw new HandlerError('IO', e.message);
        throw new HandlerError('NOT_FOUND', `no saved version ${id}`);
      }
      doc.messages = doc.history.apply(doc.messages, { type: 'replace-all', messages, label: `restore the version of ${new Date(Number.parseInt(id, 10)).toLocaleString()}` });
      return changed(doc);
    },
    'edit:compare': ({ path }) => {
      const { doc } = docFor(path);
      const mine = doc.messages.map(line);
      try {
        return { mine, theirs: readConversationFile(doc.path, { format: doc.parsed.format }).messages.map(line) };
      } catch (e) {
        return { mine, theirs: [], theirsError: (e as Error).message };
      }
    },
    'edit:export': ({ path, format }) => {
      const { doc } = docFor(path);
      const ext = { json: 'json', yaml: 'yaml', markdown: 'md', text: 'txt' }[format];
      const mime = { json: 'application/json', yaml: 'application/yaml', markdown: 'text/markdown', text: 'text/plain' }[format];
      return { filename: `${basename(doc.path, extname(doc.path))}.${ext}`, text: exportText(doc.messages, format), mime };
    },
  };
}
