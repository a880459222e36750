import { isPlainObject, type Message } from '../message.js';
import { ConversationFileError, positionAt } from './errors.js';
import { LIST_KEY, MAX_NESTING_DEPTH, type FileShape } from './types.js';

/** Which shape the parsed root has, or a clear error saying what was found instead. */
export function detectShape(root: unknown, file: string, text: string, rootOffset: number): FileShape {
  if (Array.isArray(root)) return 'list';
  if (isPlainObject(root)) {
    if (Array.isArray(root[LIST_KEY.wrapper])) return 'wrapper';
    if (Array.isArray(root.history)) return 'history';
    const keys = Object.keys(root).slice(0, 5).join(', ');
    throw new ConversationFileError(
      file,
      `expected a list of messages or an object with a "conversation_history" list; found an object with keys: ${keys || '(none)'}`,
      positionAt(text, rootOffset),
    );
  }
  throw new ConversationFileError(
    file,
    `expected a list of messages; found ${describe(root)}`,
    positionAt(text, rootOffset),
  );
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  return `a ${typeof value}`;
}

/** True when `value` nests collections deeper than `limit` (an explicit stack: deep input cannot overflow it). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // Two parallel stacks: nothing allocated per node (this walks every value of a 100 MB file).
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    if (Array.isArray(v)) {
      for (let k = 0; k < v.length; k++) {
        const child: unknown = v[k];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in v) {
        if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
        const child: unknown = (v as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/** Every element must be an object with a string `role`; the error points at the offending element. */
export function validateMessages(list: unknown[], file: string, text: string, offsets: readonly number[] | (() => readonly number[])): Message[] {
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    // Offsets are only worked out when a message is bad.
    const where = () => positionAt(text, (typeof offsets === 'function' ? offsets() : offsets)[i] ?? 0);
    if (!isPlainObject(m)) {
      throw new ConversationFileError(file, `message ${i} is ${describe(m)}, not an object`, where());
    }
    if (!('role' in m)) throw new ConversationFileError(file, `message ${i} has no "role"`, where());
    if (typeof m.role !== 'string') {
      throw new ConversationFileError(file, `message ${i}: "role" must be a string, found ${describe(m.role)}`, where());
    }
    // The list and the wrapper around it take two of the levels.
    if (nestsDeeperThan(m, MAX_NESTING_DEPTH - 2)) {
      throw new ConversationFileError(file, `message ${i} is nested more than ${MAX_NESTING_DEPTH} levels deep; refusing to read it`, where());
    }
  }
  return list as Message[];
}
