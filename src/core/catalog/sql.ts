// What the catalog's modules share of talking to SQLite: the driver's shape, and the pieces of statements.

export type Row = Record<string, unknown>;

export interface Statement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
}
export interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}

/** Values bound at most to one statement's `IN (…)` list. */
export const MAX_SQL_VARS = 500;

/** A nullable column as an optional value. */
export const opt = <T>(v: unknown): T | undefined => (v === null || v === undefined ? undefined : (v as T));

/** A JSON array column as strings (none where it is not one). */
export const json = (v: unknown): string[] => {
  try {
    const out = JSON.parse(String(v)) as unknown;
    return Array.isArray(out) ? out.map(String) : [];
  } catch {
    return [];
  }
};

/** `LIKE` patterns for "under this folder": the folder's own path and separator, wildcards escaped. */
export function underClause(column: string, under: readonly string[] | undefined, args: unknown[]): string {
  if (!under || under.length === 0) return '1';
  const parts = under.map((dir) => {
    const d = dir.replace(/[\\/]+$/, '');
    args.push(`${d.replace(/[\\%_]/g, (c) => `\\${c}`)}${d.includes('\\') && !d.includes('/') ? '\\\\' : '/'}%`);
    return `${column} LIKE ? ESCAPE '\\'`;
  });
  return `(${parts.join(' OR ')})`;
}

/**
 * A message's id is its file's slot times 2^24 plus its place among the file's messages: the index's matches are
 * counted and paged by file from their ids alone (no join per match), and a file's are deleted as one range. A
 * file is given its slot when its messages are first written, the next one: a build appends to the tables.
 */
export const FILE_MESSAGES = 2 ** 24;
export function messageIds(slot: number): [number, number] {
  const lo = slot * FILE_MESSAGES;
  return [lo, lo + FILE_MESSAGES - 1];
}

/** A message's `shown_row` where no thread shown by default holds it: on a branch its thread left, or before a compaction. */
export const SHOWN_ON_BRANCH = -1;
export const SHOWN_EARLIER = -2;

/** The name the tool's own index last gave a session (its sub-agents share its id, not its name): its title where it has one. */
export const SESSION_NAMED = "CASE WHEN s.kind = 'session' AND s.session_id IS NOT NULL THEN (SELECT n.name FROM session_names n WHERE n.session_id = s.session_id ORDER BY n.id DESC LIMIT 1) END";
