import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { confined, realRoots } from '../../storage/confine.js';
import { basename, dirname, join } from 'node:path';
import { isPlainObject } from '../../message.js';
import { ConversationFileError, TooBigError } from '../errors.js';
import { sizeText } from '../../limits.js';
import { storeText, type StoreText } from '../shared/store-codec.js';
import { LISTED_BY_NAME } from './listed-names.js';
import { nameOf, type Container } from './container.js';
import { isSqlite, openDatabase, textOf } from './sqlite.js';

type Loose = Record<string, unknown>;

const parse = (text: string | undefined): Loose | undefined => {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
};

interface Session {
  info: Loose;
  messages: Array<{ info: Loose; parts: unknown[] }>;
}

/** A session as a conversation: its title, its directory and version, a sub-agent's session said to be one. */
function conversation(s: Session): StoreText['conversations'][number] {
  const title = typeof s.info.title === 'string' && s.info.title.trim() !== '' ? s.info.title : typeof s.info.id === 'string' ? s.info.id : undefined;
  const sub = typeof s.info.parentID === 'string' && s.info.parentID !== '';
  return {
    ...(title ? { title: sub ? `sub-agent · ${title}` : title } : {}),
    meta: {
      ...(typeof s.info.id === 'string' ? { sessionId: s.info.id } : {}),
      ...(typeof s.info.directory === 'string' ? { cwd: s.info.directory } : {}),
      ...(typeof s.info.version === 'string' ? { version: s.info.version } : {}),
    },
    records: s.messages,
  };
}

const byId = (a: { info: Loose }, b: { info: Loose }) => String(a.info.id ?? '').localeCompare(String(b.info.id ?? ''));

/** A row's `data` JSON with the ids its table keeps in columns (what `opencode export` puts in the object). */
function rowValue(row: Loose, ids: Loose): Loose {
  const data = parse(textOf(row.data));
  return data ? { ...ids, ...data } : { ...ids, type: 'unreadable', text: textOf(row.data) ?? '' };
}

/**
 * OpenCode 1.x's database (`~/.local/share/opencode/opencode.db`, drizzle's `session`, `message` and `part`
 * tables, each message's and part's fields in a `data` JSON column; packages/opencode/src/session/session.sql.ts
 * in sst/opencode). Sessions newest last; messages and parts in id order, which is OpenCode's own (its ids
 * begin with the time).
 */
export const openCodeDbContainer: Container = {
  id: 'opencode-db',
  label: 'OpenCode database',
  format: 'opencode-store',
  extensions: ['.db'],
  listed: LISTED_BY_NAME['opencode-db'].listed,
  holds: (file, head) => /^opencode(-[\w.-]+)?\.db$/i.test(nameOf(file)) && isSqlite(head),
  open(file, bytes, limits) {
    const db = openDatabase(file, bytes, limits);
    try {
      const tables = db.tables();
      for (const t of ['session', 'message', 'part']) if (!tables.has(t)) throw new ConversationFileError(file, `an SQLite database without OpenCode's "${t}" table (tables: ${[...tables].join(', ') || 'none'})`, undefined, true);
      const sessions = new Map<string, Session>();
      for (const row of db.all('SELECT * FROM session ORDER BY time_created, id')) {
        const id = String(row.id);
        const info: Loose = { id, title: row.title, directory: row.directory, version: row.version, parentID: row.parent_id ?? undefined, projectID: row.project_id, time: { created: row.time_created, updated: row.time_updated } };
        sessions.set(id, { info: Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined && v !== null)), messages: [] });
      }
      const messages = new Map<string, { info: Loose; parts: unknown[] }>();
      for (const row of db.all('SELECT * FROM message ORDER BY session_id, id')) {
        const session = sessions.get(String(row.session_id));
        if (!session) continue;
        const m = { info: rowValue(row, { id: row.id, sessionID: row.session_id }), parts: [] as unknown[] };
        messages.set(String(row.id), m);
        session.messages.push(m);
      }
      for (const row of db.all('SELECT * FROM part ORDER BY message_id, id')) {
        messages.get(String(row.message_id))?.parts.push(rowValue(row, { id: row.id, sessionID: row.session_id, messageID: row.message_id }));
      }
      const list = [...sessions.values()].filter((s) => s.messages.length > 0);
      return { text: storeText({ store: 'opencode', conversations: list.map(conversation) }), format: 'opencode-store', name: nameOf(file), readOnly: 'OpenCode’s own database (it may be writing it now): Export (Ctrl+K) or the CLI’s `convert` gives an editable copy' };
    } finally {
      db.close();
    }
  },
};

/**
 * The session's pieces read one by one, together no more than the cap (a folder can hold any number of files
 * of any size): past it, the session is refused naming the piece that passed it.
 */
function pieceReader(session: string, cap: number): (file: string) => Loose | undefined {
  let read = 0;
  return (file) => {
    let text: string;
    try {
      read += statSync(file).size;
      if (read > cap) throw new TooBigError(session, `its messages and parts come to more than ${sizeText(cap)} (at ${file}), the most a session of OpenCode's storage folder is read to here: it is not read`, cap);
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if (e instanceof TooBigError) throw e;
      return undefined;
    }
    return parse(text);
  };
}
/**
 * The JSON pieces in a folder of the store, each at its real path: a piece (or its folder) that is a link out of
 * the store is left out, never read (confine.ts: the rule of every path read under an opened folder).
 */
const jsonFiles = (dir: string, storage: readonly string[]) => {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()
      .flatMap((n) => confined(storage, join(dir, n)) ?? []);
  } catch {
    return [];
  }
};

/** `…/storage/session/<project>/<session>.json` (OpenCode 0.x) and the older `…/storage/session/info/<session>.json`. */
const SESSION_FILE = /[\\/]storage[\\/]session[\\/][^\\/]+[\\/]ses_[^\\/]+\.json$/;

/**
 * OpenCode's older store, a folder of JSON files: `storage/session/<project>/<session>.json` the session,
 * `storage/message/<session>/<message>.json` each message's info, `storage/part/<message>/<part>.json` its
 * parts (before that, `storage/session/{info,message,part}/…`). The session file is what a listing shows; the
 * message and part files are its pieces, not listed.
 */
export const openCodeStorageContainer: Container = {
  id: 'opencode-storage',
  label: 'OpenCode storage folder',
  format: 'opencode-store',
  extensions: ['.json'],
  holds: (file) => SESSION_FILE.test(file),
  open(file, bytes, limits) {
    const readJson = pieceReader(file, limits.maxInflatedBytes - bytes.length);
    const info = parse(Buffer.from(bytes).toString('utf8'));
    if (!info) throw new ConversationFileError(file, 'not an OpenCode session file (expected a JSON object with the session’s id and title)');
    const id = typeof info.id === 'string' ? info.id : basename(file, '.json');
    const storage = dirname(dirname(dirname(file)));
    const legacy = basename(dirname(file)) === 'info';
    const messageDir = legacy ? join(dirname(dirname(file)), 'message', id) : join(storage, 'message', id);
    const session: Session = { info: { ...info, id }, messages: [] };
    // The store is the folder the session file really lies in, three levels up.
    const store = realRoots([legacy ? dirname(dirname(file)) : storage]);
    for (const f of jsonFiles(messageDir, store)) {
      const m = readJson(f);
      if (!m) continue;
      const mid = typeof m.id === 'string' ? m.id : basename(f, '.json');
      const partDir = legacy ? join(dirname(dirname(file)), 'part', id, mid) : join(storage, 'part', mid);
      const parts = jsonFiles(partDir, store).map((p) => readJson(p) ?? { type: 'unreadable', text: basename(p) });
      session.messages.push({ info: { ...m, id: mid }, parts });
    }
    session.messages.sort(byId);
    if (session.messages.length === 0 && !existsSync(messageDir)) {
      throw new ConversationFileError(file, `an OpenCode session whose messages are not beside it (no ${messageDir})`, undefined, true);
    }
    return { text: storeText({ store: 'opencode', conversations: [conversation(session)] }), format: 'opencode-store', name: nameOf(file), readOnly: 'OpenCode’s own storage folder (it may be writing it now): Export (Ctrl+K) or the CLI’s `convert` gives an editable copy' };
  },
};

