import type { Message } from '../message.js';
import { applyEdit, describeEdit, type EditCommand } from './commands.js';

interface Entry {
  label: string;
  undo: EditCommand;
  redo: EditCommand;
  /** Who made it (a window of the app), where that is known: an undo is theirs to ask for. */
  origin?: string;
}

/**
 * Undo and redo over edit commands. Only the user's edits enter it: a reload from disk replaces the
 * document and clears the history instead of being recorded.
 */
export class EditHistory {
  private undoStack: Entry[] = [];
  private redoStack: Entry[] = [];

  constructor(private readonly limit = 500) {}

  /** `label` names the edit where its command's indexes are not the ones the user saw (a view's path). */
  apply(messages: readonly Message[], command: EditCommand, label?: string, origin?: string): Message[] {
    const { messages: next, undo } = applyEdit(messages, command);
    this.undoStack.push({ label: label ?? describeEdit(command), undo, redo: command, ...(origin ? { origin } : {}) });
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack = [];
    return next;
  }

  undo(messages: readonly Message[]): Message[] | undefined {
    const entry = this.undoStack.pop();
    if (!entry) return undefined;
    const { messages: next, undo: redo } = applyEdit(messages, entry.undo);
    this.redoStack.push({ label: entry.label, undo: entry.undo, redo, ...(entry.origin ? { origin: entry.origin } : {}) });
    return next;
  }

  redo(messages: readonly Message[]): Message[] | undefined {
    const entry = this.redoStack.pop();
    if (!entry) return undefined;
    const { messages: next, undo } = applyEdit(messages, entry.redo);
    this.undoStack.push({ label: entry.label, undo, redo: entry.redo, ...(entry.origin ? { origin: entry.origin } : {}) });
    return next;
  }

  get canUndo(): string | undefined {
    return this.undoStack.at(-1)?.label;
  }

  get canRedo(): string | undefined {
    return this.redoStack.at(-1)?.label;
  }

  /** Who made the edit an undo (or a redo) would step over, where known. */
  originOf(step: 'undo' | 'redo'): string | undefined {
    return (step === 'undo' ? this.undoStack : this.redoStack).at(-1)?.origin;
  }

  /**
   * Replaces objects the recorded edits refer to (records read again after a save take the live ones' place).
   * `appended`: records another program added at the end of the file, which the save took in: a whole list put
   * back by an undo or a redo keeps them after its own (it must never take them out of the file again).
   */
  remap(map: ReadonlyMap<object, Message>, appended: readonly Message[] = []): void {
    if (map.size === 0 && appended.length === 0) return;
    const swap = (m: Message) => map.get(m) ?? m;
    const fix = (c: EditCommand): EditCommand => {
      switch (c.type) {
        case 'insert':
          return { ...c, messages: c.messages.map(swap) };
        case 'replace-all':
          return { ...c, messages: appended.length > 0 ? c.messages.map(swap).concat(appended) : c.messages.map(swap) };
        case 'set':
        case 'restore':
          return { ...c, items: c.items.map((it) => ({ ...it, message: swap(it.message) })) };
        default:
          return c;
      }
    };
    for (const stack of [this.undoStack, this.redoStack]) for (const e of stack) {
      e.undo = fix(e.undo);
      e.redo = fix(e.redo);
    }
  }

  clear(): void {
    this.undoStack = [];
    this.redoStack = [];
  }
}
