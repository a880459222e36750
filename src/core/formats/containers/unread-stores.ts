import { ConversationFileError } from '../errors.js';
import { nameOf } from './container.js';
import { openDatabase } from './sqlite.js';

/**
 * The databases of agent tools whose conversations are not read here, known by the name and folder their tool
 * gives them: listed (in Files, each with why it is not read; in Sessions, counted in one line) rather than
 * passed over in silence, so that a folder of them does not look empty or forgotten.
 */
export interface UnreadStore {
  /** Kept as the file's format where it cannot be read (the catalog's files.format), so lists can name it. */
  id: string;
  tool: string;
  /** What the database holds, for people: "Zed threads". */
  label: string;
  /** Its name, and the folder it is kept in. */
  name: RegExp;
  folder: RegExp;
  /** Tables the tool's database has: a database of the same name without them is someone else's. */
  tables: readonly string[];
  /** For a tool that is read here from other files: where its sessions are read from instead. */
  readFrom?: string;
}

export const UNREAD_STORES: readonly UnreadStore[] = [
  // Zed's agent panel: ~/.local/share/zed/threads/threads.db, each thread a zstd-compressed JSON blob.
  { id: 'zed-threads', tool: 'Zed', label: 'Zed threads', name: /^threads\.db$/i, folder: /^threads$/i, tables: ['threads'] },
  // Goose: ~/.local/share/goose/sessions/sessions.db (sessions, and their messages as JSON content).
  // Copilot CLI's index of its sessions (~/.copilot/session-store.db: each session's folder, summary and turns, and a
  // search index): the sessions themselves are its session-state/<id>/events.jsonl, read here.
  { id: 'copilot-session-store', tool: 'Copilot CLI', label: 'Copilot CLI session index', name: /^session-store\.db$/i, folder: /^/, tables: ['sessions', 'turns', 'checkpoints'], readFrom: "each session's session-state/<id>/events.jsonl" },
  { id: 'goose-sessions', tool: 'Goose', label: 'Goose sessions', name: /^sessions\.db$/i, folder: /^sessions$/i, tables: ['sessions', 'messages'] },
];

/** The tool's database a file is by its name and folder, before its tables are looked at. */
export function unreadStoreNamed(file: string): UnreadStore | undefined {
  // Asked of every file a listing walks: the name first, the folder only for a name that matches.
  const name = nameOf(file);
  const named = UNREAD_STORES.filter((s) => s.name.test(name));
  if (named.length === 0) return undefined;
  const parts = file.replace(/\\/g, '/').split('/');
  const folder = parts[parts.length - 2] ?? '';
  return named.find((s) => s.folder.test(folder));
}

export const unreadStoreById = (id: string | undefined): UnreadStore | undefined => UNREAD_STORES.find((s) => s.id === id);

/** A database of a tool whose conversations are not read here: said as one, by name. */
export class NotReadHereError extends ConversationFileError {
  constructor(
    file: string,
    readonly store: UnreadStore,
    readDatabases: readonly string[],
  ) {
    super(file, store.readFrom ? `the ${store.label}, not read as sessions: they are read from ${store.readFrom}` : `a database of ${store.label}: ${store.tool} is not read here (its conversations are not shown; the databases read here: ${readDatabases.join(', ')})`, undefined, true);
    this.name = 'NotReadHereError';
  }
}

/**
 * The unread tool's database a SQLite file is: by its name and folder, and its tables where they can be read
 * (sql.js loaded); undefined for a database of that name with other tables.
 */
export function unreadStoreOf(file: string, bytes: Uint8Array): UnreadStore | undefined {
  const store = unreadStoreNamed(file);
  if (!store) return undefined;
  let tables: Set<string>;
  try {
    const db = openDatabase(file, bytes);
    try {
      tables = db.tables();
    } finally {
      db.close();
    }
  } catch {
    // Not readable as SQLite here (sql.js not loaded, a damaged page): its name and folder say what it is.
    return store;
  }
  return store.tables.every((t) => tables.has(t)) ? store : undefined;
}
