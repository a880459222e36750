import type { MessageFacts } from './facts.js';
import { libsqlDriver } from './libsql-driver.js';
import { writeMessages, type MessageBatch } from './message-rows.js';
import { messageIds, type Database, type Statement } from './sql.js';

/**
 * The index built in shards: each reader thread writes the messages of the files it reads whole into a database
 * of its own beside the catalog (`<catalog>.index-<n>`), which the catalog attaches and searches with its own.
 * Writing the index is half of what building a catalog costs; on one thread it was a thread's whole work, and two
 * threads writing one database would take turns.
 */
export const shardFile = (catalog: string, n: number) => `${catalog}.index-${n}`;

/** What a shard was given: each file's slot and how many of its messages are in it. */
export type Indexed = Array<{ file: string; slot: number; count: number }>;

/**
 * Texts written in one transaction at least: the index writes a transaction's words as one segment at its end (a
 * transaction per file made a segment per file, to merge again). Held longer, they cost more than they save: the
 * CLI's build of a 1.9 GB store took 46 s and peaked at 516–529 MB at 2 M characters, 47 s / 547 MB at 4 M,
 * 51 s / 569 MB at 8 M, 56 s / 663 MB at 12 M, and 49 s / 496 MB at 1 M.
 */
const TRANSACTION_CHARS = 2 * 1024 * 1024;

/** A shard as a reader thread writes it (its tables made by the catalog, which attaches it). */
export class ShardWriter {
  private readonly db: Database;
  private readonly stmts = new Map<string, Statement>();
  private batches: MessageBatch[] = [];
  private given: Indexed = [];
  private chars = 0;

  constructor(readonly path: string) {
    const Driver = libsqlDriver();
    this.db = new Driver(path);
    this.db.exec('PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  }

  private stmt = (sql: string): Statement => {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)));
    return s;
  };

  /** A file's messages, from the first id of its slot on; written at the next commit. */
  add(file: string, slot: number, all: readonly MessageFacts[]): void {
    const [lo, hi] = messageIds(slot);
    // A file of more messages than its range holds (16.7 million) is searched in its first ones.
    const messages = all.length > hi + 1 - lo ? all.slice(0, hi + 1 - lo) : all;
    this.batches.push({ first: lo, messages });
    this.given.push({ file, slot, count: messages.length });
    for (const m of messages) this.chars += m.text.length;
  }

  /** Whether enough is held to be written as one segment. */
  get full(): boolean {
    return this.chars >= TRANSACTION_CHARS;
  }

  /** Writes what it holds in one transaction; what it wrote (nothing is kept of a transaction that failed). */
  commit(): Indexed {
    const given = this.given;
    const batches = this.batches;
    this.batches = [];
    this.given = [];
    this.chars = 0;
    if (batches.length === 0) return [];
    this.db.exec('BEGIN IMMEDIATE');
    try {
      writeMessages(this.stmt, batches);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
    return given;
  }

  close(): void {
    this.db.close();
  }
}
