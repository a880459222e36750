import { indexText } from '../search/words.js';
import type { MessageFacts } from './facts.js';
import { SHOWN_EARLIER, SHOWN_ON_BRANCH, type Statement } from './sql.js';

const MESSAGE_COLUMNS = 9;
const ROWS_AT_ONCE = 32;

/**
 * Messages to write as rows and words, with ids from `first` on (the file's next ones): the catalog's own tables,
 * or a shard's in a reader thread.
 */
export interface MessageBatch {
  first: number;
  messages: readonly MessageFacts[];
}

/**
 * Writes batches through `stmt` (a cache of prepared statements of the connection): every row first, then every
 * text's words. FTS5 writes the words it holds in memory out to disk at each statement that opens a savepoint
 * (any insert of several rows does), so rows and words interleaved made a segment per file to merge again: the
 * index took twice as long to write.
 */
export function writeMessages(stmt: (sql: string) => Statement, batches: readonly MessageBatch[]): void {
  // Rows go ROWS_AT_ONCE to a statement (2.4× less work than one each).
  const rows = (n: number) => stmt(`INSERT INTO messages(id, conversation, idx, role, line_start, line_end, shown_thread, shown_row, spelled) VALUES ${Array(n).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`);
  let args: unknown[] = [];
  for (const { first, messages } of batches) {
    messages.forEach((m, k) => {
      const shown = m.shown === undefined ? [null, null] : m.shown === null ? [null, m.offPath === 'earlier' ? SHOWN_EARLIER : SHOWN_ON_BRANCH] : [m.shown.thread, m.shown.index];
      args.push(first + k, m.conversation, m.index, m.role, m.bytes?.[0] ?? null, m.bytes?.[1] ?? null, shown[0], shown[1], m.spelled ?? null);
      if (args.length === MESSAGE_COLUMNS * ROWS_AT_ONCE) {
        rows(ROWS_AT_ONCE).run(args);
        args = [];
      }
    });
  }
  if (args.length) rows(args.length / MESSAGE_COLUMNS).run(args);
  const words = stmt('INSERT INTO messages_fts(rowid, text) VALUES (?, ?)');
  // Lowercased as the search rule lowercases (İ is i and a dot), so that the index folds nothing its own way.
  for (const { first, messages } of batches) messages.forEach((m, k) => words.run(first + k, indexText(m.text)));
}
