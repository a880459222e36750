import { LISTED_BY_NAME } from './listed-names.js';
import { ConversationFileError } from '../errors.js';
import { MAX_NESTING_DEPTH } from '../types.js';
import { nestsDeeperThan } from '../validate.js';

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

/** What one read of a container may cost (limits.ts). */
export interface OpenLimits {
  /** The most its text may unpack to: counted while unpacking, declared sizes checked first. */
  maxInflatedBytes: number;
}

export interface Container {
  id: string;
  label: string;
  /** Whether this is the container of a file, by its path and first bytes (16 at least when the file has them). */
  holds(file: string, head: Uint8Array): boolean;
  /**
   * The file's conversations as text; `bytes` are the whole file. Throws ConversationFileError, TooBigError when
   * what it holds (or declares it holds) is past `limits`.
   */
  open(file: string, bytes: Uint8Array, limits: OpenLimits): ContainerContent;
  /** The codec that reads what it holds, when that is always the same one (a listing names it from the head). */
  format?: string;
  /** Extensions (lower case, with the dot) a listing looks at for this container. */
  extensions: readonly string[];
  /** Whether a listing shows this file, by its name alone (a database is listed only by the name its app gives it). */
  listed?(file: string): boolean;
}

const containers: Container[] = [];
// Asked of every file a listing walks: kept until a container is registered.
let byName: Set<string> | undefined;

export function registerContainer(c: Container): void {
  byName = undefined;
  const i = containers.findIndex((x) => x.id === c.id);
  if (i === -1) containers.push(c);
  else containers[i] = c;
}

export function listContainers(): readonly Container[] {
  return containers;
}

/** The extensions of the databases a listing shows only by the name their app gives them (`listed`). */
export function listedByNameExtensions(): ReadonlySet<string> {
  return (byName ??= new Set([...Object.values(LISTED_BY_NAME), ...containers.filter((c) => c.listed)].flatMap((c) => c.extensions)));
}

/** Whether a listing shows this database by its name (a built-in container's rule, or a registered one's). */
export function listedByName(file: string): boolean {
  return Object.values(LISTED_BY_NAME).some((c) => c.listed(file)) || containers.some((c) => c.listed?.(file) === true);
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

export { nameOf } from '../../util/file-name.js';

/** What indenting by two spaces adds to a value's compact JSON: a line and its indent per member, one per closer. */
function indentCost(v: unknown, depth: number, most: number): number {
  if (v === null || typeof v !== 'object') return 0;
  const members = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
  if (members.length === 0) return 0;
  // A newline and the indent before each member, ": " for a key's ":", and the closer's own line.
  let n = members.length * (1 + 2 * (depth + 1)) + (Array.isArray(v) ? 0 : members.length) + 1 + 2 * depth;
  for (const m of members) {
    if (n > most) return n;
    n += indentCost(m, depth + 1, most - n);
  }
  return n;
}

/**
 * A value a container assembles as the JSON text its codec reads: indented, as its tool writes it, unless the
 * indentation alone would take it past `cap` (a value nested deep, each level's members indented again, grows
 * by hundreds of times): then compact, which reads as the same value.
 */
export function containerJson(value: unknown, cap: number, file: string): string {
  // Deeper than any file is read (and than JSON.stringify's stack goes): refused as a file of it would be.
  if (nestsDeeperThan(value, MAX_NESTING_DEPTH)) throw new ConversationFileError(file, `what it holds is nested more than ${MAX_NESTING_DEPTH} levels deep; refusing to read it`);
  const compact = JSON.stringify(value);
  return compact.length + indentCost(value, 0, cap - compact.length) > cap ? compact : JSON.stringify(value, null, 2);
}
