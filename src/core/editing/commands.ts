import { markDerived, type Message } from '../message.js';

/**
 * Edits as data: each applies to a message list and yields the list after it plus the command that undoes it.
 * Messages are never mutated: an edited message is a new object, so the style-preserving writer can tell
 * untouched messages (same object) from edited ones.
 */
export type EditCommand =
  | { type: 'update'; index: number; patch: Partial<Message>; remove?: string[] }
  | { type: 'insert'; index: number; messages: Message[] }
  | { type: 'delete'; indexes: number[] }
  | { type: 'move'; indexes: number[]; to: number }
  | { type: 'replace-all'; messages: Message[]; label?: string }
  /** Puts these exact objects at these indexes (undo of update). */
  | { type: 'set'; items: Array<{ index: number; message: Message }> }
  /** Re-inserts these exact objects at these final indexes, ascending (undo of delete). */
  | { type: 'restore'; items: Array<{ index: number; message: Message }> };

export class EditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EditError';
  }
}

export interface Applied {
  messages: Message[];
  undo: EditCommand;
}

function checkIndexes(indexes: readonly number[], length: number): number[] {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  if (sorted.length === 0) throw new EditError('no messages given');
  for (const i of sorted) if (!Number.isInteger(i) || i < 0 || i >= length) throw new EditError(`message ${i} does not exist (${length} messages)`);
  return sorted;
}

export function applyEdit(messages: readonly Message[], command: EditCommand): Applied {
  switch (command.type) {
    case 'update': {
      checkIndexes([command.index], messages.length);
      const before = messages[command.index];
      const next: Message = { ...before, ...command.patch };
      for (const key of command.remove ?? []) delete next[key];
      if (typeof next.role !== 'string' || next.role === '') throw new EditError('a message needs a role');
      markDerived(next, before);
      const out = messages.slice();
      out[command.index] = next;
      // Undo puts back the very object that was there, so an undone edit saves byte for byte as before.
      return { messages: out, undo: { type: 'set', items: [{ index: command.index, message: before }] } };
    }
    case 'insert': {
      if (!Number.isInteger(command.index) || command.index < 0 || command.index > messages.length) throw new EditError(`cannot insert at ${command.index}`);
      const out = [...messages.slice(0, command.index), ...command.messages, ...messages.slice(command.index)];
      return { messages: out, undo: { type: 'delete', indexes: command.messages.map((_, k) => command.index + k) } };
    }
    case 'delete': {
      const sorted = checkIndexes(command.indexes, messages.length);
      const drop = new Set(sorted);
      return { messages: messages.filter((_, i) => !drop.has(i)), undo: { type: 'restore', items: sorted.map((index) => ({ index, message: messages[index] })) } };
    }
    case 'set': {
      checkIndexes(command.items.map((it) => it.index), messages.length);
      const out = messages.slice();
      const undo = command.items.map(({ index }) => ({ index, message: messages[index] }));
      for (const { index, message } of command.items) out[index] = message;
      return { messages: out, undo: { type: 'set', items: undo } };
    }
    case 'restore': {
      const out = messages.slice();
      for (const { index, message } of [...command.items].sort((a, b) => a.index - b.index)) {
        if (index < 0 || index > out.length) throw new EditError(`cannot restore at ${index}`);
        out.splice(index, 0, message);
      }
      return { messages: out, undo: { type: 'delete', indexes: command.items.map((it) => it.index) } };
    }
    case 'move': {
      const sorted = checkIndexes(command.indexes, messages.length);
      const moving = sorted.map((i) => messages[i]);
      const rest = messages.filter((_, i) => !sorted.includes(i));
      const to = Math.max(0, Math.min(rest.length, command.to));
      return { messages: [...rest.slice(0, to), ...moving, ...rest.slice(to)], undo: { type: 'replace-all', messages: messages.slice(), label: 'undo move' } };
    }
    case 'replace-all':
      return { messages: command.messages.slice(), undo: { type: 'replace-all', messages: messages.slice(), label: command.label ? `undo ${command.label}` : undefined } };
  }
}

/** A short description for menus and the undo history. */
export function describeEdit(command: EditCommand): string {
  switch (command.type) {
    case 'update':
      return `edit message ${command.index}`;
    case 'insert':
      return command.messages.length === 1 ? `add a message at ${command.index}` : `add ${command.messages.length} messages`;
    case 'delete':
      return command.indexes.length === 1 ? `delete message ${command.indexes[0]}` : `delete ${command.indexes.length} messages`;
    case 'move':
      return command.indexes.length === 1 ? `move message ${command.indexes[0]}` : `move ${command.indexes.length} messages`;
    case 'replace-all':
      return command.label ?? 'replace the history';
    case 'set':
      return 'restore messages';
    case 'restore':
      return command.items.length === 1 ? `restore message ${command.items[0].index}` : `restore ${command.items.length} messages`;
  }
}
