import { basename } from 'node:path';

/**
 * What a file holds when its conversations are not its own text: a compressed copy of a format read here
 * (Codex's `.jsonl.zst`), an archive of JSON (Inspect's `.eval`), another app's database (OpenCode's
 * `opencode.db`, Cursor's and VS Code's `state.vscdb`), or a session spread over a folder of small files
 * (OpenCode's older `storage/`). A container gives the text a codec reads and says why the result cannot be
 * saved in place (a conversion or Save As writes a file of a format that can be).
 */
export interface ContainerContent {
  /** The text the codec reads. */
  text: string;
  /** The codec that reads it; undefined: detection by `name`. */
  format?: string;
  /** The name detection sees (`rollout-….jsonl` for `rollout-….jsonl.zst`). */
  name: string;
  /** Why this file is not written back in place, said to the user before any edit. */
  readOnly: string;
}

export interface Container {
  id: string;
  label: string;
  /** Whether this is the container of a file, by its path and first bytes (16 at least when the file has them). */
  holds(file: string, head: Uint8Array): boolean;
  /** The file's conversations as text; `bytes` are the whole file. Throws ConversationFileError. */
  open(file: string, bytes: Uint8Array): ContainerContent;
  /** The codec that reads what it holds, when that is always the same one (a listing names it from the head). */
  format?: string;
  /** Extensions (lower case, with the dot) a listing looks at for this container. */
  extensions: readonly string[];
  /** Whether a listing shows this file, by its name alone (a database is listed only by the name its app gives it). */
  listed?(file: string): boolean;
}

const containers: Container[] = [];

export function registerContainer(c: Container): void {
  const i = containers.findIndex((x) => x.id === c.id);
  if (i === -1) containers.push(c);
  else containers[i] = c;
}

export function listContainers(): readonly Container[] {
  return containers;
}

/** The container holding a file, if its name and first bytes say it is one. */
export function containerOf(file: string, head: Uint8Array): Container | undefined {
  return containers.find((c) => c.holds(file, head));
}

/** Whether bytes begin with these. */
export function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  if (bytes.length < magic.length) return false;
  return magic.every((b, i) => bytes[i] === b);
}

export const nameOf = (file: string) => basename(file.replace(/\\/g, '/'));
