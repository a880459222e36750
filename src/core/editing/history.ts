import type { Message } from '../message.js';
import { applyEdit, describeEdit, type EditCommand } from './commands.js';

interface Entry {
  label: string;
  undo: EditCommand;
  redo: EditCommand;
}

/**
 * Undo and redo over edit commands. Only the user's edits enter it: a reload from disk replaces the
 * document and clears the history instead of being recorded.
 */
export class EditHistory {
  private undoStack: Entry[] = [];
  private redoStack: Entry[] = [];

  constructor(private readonly limit = 500) {}

  apply(messages: readonly Message[], command: EditCommand): Message[] {
    const { messages: next, undo } = applyEdit(messages, command);
    this.undoStack.push({ label: describeEdit(command), undo, redo: command });
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack = [];
    return next;
  }

  undo(messages: readonly Message[]): Message[] | undefined {
    const entry = this.undoStack.pop();
    if (!entry) return undefined;
    const { messages: next, undo: redo } = applyEdit(messages, entry.undo);
    this.redoStack.push({ label: entry.label, undo: entry.undo, redo });
    return next;
  }

  redo(messages: readonly Message[]): Message[] | undefined {
    const entry = this.redoStack.pop();
    if (!entry) return undefined;
    const { messages: next, undo } = applyEdit(messages, entry.redo);
    this.undoStack.push({ label: entry.label, undo, redo: entry.redo });
    return next;
  }

  get canUndo(): string | undefined {
    return this.undoStack.at(-1)?.label;
  }

  get canRedo(): string | undefined {
    return this.redoStack.at(-1)?.label;
  }

  clear(): void {
    this.undoStack = [];
    this.redoStack = [];
  }
}
