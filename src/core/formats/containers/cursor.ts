import { isPlainObject } from '../../message.js';
import { storeText, type StoreText } from '../shared/store-codec.js';
import { LISTED_BY_NAME } from './listed-names.js';
import { nameOf, type Container } from './container.js';
import { isSqlite, openDatabase, textOf, type ReadOnlyDatabase } from './sqlite.js';

type Loose = Record<string, unknown>;

const json = (v: unknown): unknown => {
  const t = textOf(v);
  if (t === undefined) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
};

function composerTitle(c: Loose, bubbles: unknown[]): string | undefined {
  for (const k of ['name', 'subtitle']) if (typeof c[k] === 'string' && (c[k] as string).trim() !== '') return (c[k] as string).trim();
  const first = bubbles.find((b) => isPlainObject(b) && b.type === 1 && typeof b.text === 'string' && b.text.trim() !== '') as Loose | undefined;
  return first ? String(first.text).trim().split('\n')[0].slice(0, 120) : undefined;
}

type Conversations = StoreText['conversations'];

const bubbleTime = (b: unknown) => {
  const t = isPlainObject(b) ? (b.createdAt ?? b.timestamp) : undefined;
  return typeof t === 'number' ? t : typeof t === 'string' && !Number.isNaN(Date.parse(t)) ? Date.parse(t) : undefined;
};

/** Bubbles in the order they were written (their times; the database's order where they have none). */
const byTime = (list: unknown[]) =>
  list
    .map((b, i) => ({ b, i, t: bubbleTime(b) }))
    .sort((x, y) => (x.t !== undefined && y.t !== undefined && x.t !== y.t ? x.t - y.t : x.i - y.i))
    .map((x) => x.b);

/**
 * A composer's bubbles: in the order its headers give (a header whose bubble is gone says so), else its inline
 * `conversation` (before Cursor 0.43) or `conversationMap`; then every bubble row of it the list does not name
 * (kept by Cursor, e.g. past a restored checkpoint), said to be such. A composer without headers is its rows.
 */
function composerBubbles(c: Loose, own: Map<string, unknown>): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  const add = (b: unknown) => {
    const id = isPlainObject(b) && typeof b.bubbleId === 'string' ? b.bubbleId : undefined;
    if (id !== undefined) {
      if (seen.has(id)) return;
      seen.add(id);
    }
    out.push(b);
  };
  const headers = Array.isArray(c.fullConversationHeadersOnly) ? c.fullConversationHeadersOnly : [];
  for (const h of headers) {
    const bid = isPlainObject(h) ? String(h.bubbleId ?? '') : '';
    const b = own.get(bid);
    // A header whose bubble is gone: what the header says (its side), not nothing.
    add(isPlainObject(b) ? b : { ...(isPlainObject(h) ? h : {}), text: '', missing: true });
  }
  if (Array.isArray(c.conversation)) for (const b of c.conversation) add(b);
  if (isPlainObject(c.conversationMap)) for (const b of byTime(Object.values(c.conversationMap))) add(b);
  const listed = out.length > 0;
  for (const [bid, b] of own) {
    if (seen.has(bid)) continue;
    seen.add(bid);
    if (listed) out.push(isPlainObject(b) ? { ...b, unlisted: true } : { bubbleId: bid, text: '', unlisted: true });
    else out.push(isPlainObject(b) ? b : { bubbleId: bid, text: '', unreadable: true });
  }
  return listed ? out : byTime(out);
}

/**
 * The agent and composer chats of a global `state.vscdb`: each composer's bubbles; bubbles whose composer row is
 * gone under their composer's id. `empty`: composers with no bubble at all (drafts), counted.
 */
function composers(db: ReadOnlyDatabase): { conversations: Conversations; empty: number; ids: Set<string> } {
  const out: Array<Conversations[number] & { at: number }> = [];
  const bubbleRows = new Map<string, Map<string, unknown>>();
  for (const row of db.all("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'bubbleId:%' ORDER BY rowid")) {
    const [, composer, bubble] = String(row.key).split(':');
    if (!composer || !bubble) continue;
    let m = bubbleRows.get(composer);
    if (!m) bubbleRows.set(composer, (m = new Map()));
    m.set(bubble, json(row.value) ?? { bubbleId: bubble, text: textOf(row.value) ?? '', unreadable: true });
  }
  let empty = 0;
  const ids = new Set<string>();
  for (const row of db.all("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%' ORDER BY rowid")) {
    const value = json(row.value);
    const c: Loose = isPlainObject(value) ? value : {};
    const id = typeof c.composerId === 'string' ? c.composerId : String(row.key).slice('composerData:'.length);
    ids.add(id);
    const bubbles = composerBubbles(c, bubbleRows.get(id) ?? new Map<string, unknown>());
    bubbleRows.delete(id);
    if (bubbles.length === 0) {
      empty++;
      continue;
    }
    const at = typeof c.createdAt === 'number' ? c.createdAt : 0;
    const title = composerTitle(c, bubbles);
    out.push({ at, ...(title ? { title } : {}), meta: { sessionId: id }, records: bubbles });
  }
  out.sort((a, b) => a.at - b.at);
  // Bubbles whose composer row Cursor no longer has: kept, under the id their keys give.
  for (const [id, rows] of bubbleRows) {
    ids.add(id);
    const bubbles = byTime([...rows.values()]);
    const title = composerTitle({}, bubbles);
    out.push({ at: 0, title: `${title ?? `composer ${id}`} (its composer record is not in the database)`, meta: { sessionId: id }, records: bubbles });
  }
  return { conversations: out.map(({ at: _at, ...c }) => c), empty, ids };
}

/**
 * A workspace's own list of its composers (`composer.composerData` in ItemTable): before Cursor 0.43 each held
 * its conversation inline; since, only its header, the chat itself being in the global `state.vscdb`.
 */
function workspaceComposers(db: ReadOnlyDatabase, known: Set<string>): { inline: Conversations; elsewhere: Conversations } {
  const row = db.all("SELECT value FROM ItemTable WHERE key = 'composer.composerData'")[0];
  const data = row ? json(row.value) : undefined;
  const all = isPlainObject(data) && Array.isArray(data.allComposers) ? data.allComposers.filter(isPlainObject) : [];
  const conversations: Conversations = [];
  const elsewhere: Loose[] = [];
  for (const c of all) {
    const id = typeof c.composerId === 'string' ? c.composerId : undefined;
    if (id !== undefined && known.has(id)) continue;
    const bubbles = composerBubbles(c, new Map());
    if (bubbles.length === 0) {
      // Listed here, kept elsewhere: each said, not left out without a word.
      elsewhere.push({ ...c, elsewhere: true });
      continue;
    }
    const title = composerTitle(c, bubbles);
    conversations.push({ ...(title ? { title } : {}), ...(id ? { meta: { sessionId: id } } : {}), records: bubbles });
  }
  const title = `${elsewhere.length} composer${elsewhere.length === 1 ? '' : 's'} of this workspace, kept in Cursor's global state.vscdb`;
  return { inline: conversations, elsewhere: elsewhere.length > 0 ? [{ title, records: elsewhere }] : [] };
}

/** The older chat panel of a workspace `state.vscdb` (`workbench.panel.aichat.view.aichat.chatdata`): its tabs. */
function chatTabs(db: ReadOnlyDatabase): Conversations {
  const row = db.all("SELECT value FROM ItemTable WHERE key = 'workbench.panel.aichat.view.aichat.chatdata'")[0];
  const data = row ? json(row.value) : undefined;
  const tabs = isPlainObject(data) && Array.isArray(data.tabs) ? data.tabs : [];
  return tabs.filter(isPlainObject).flatMap((t) => {
    const bubbles = Array.isArray(t.bubbles) ? t.bubbles : [];
    if (bubbles.length === 0) return [];
    const title = typeof t.chatTitle === 'string' && t.chatTitle.trim() !== '' ? t.chatTitle : undefined;
    return [{ ...(title ? { title } : {}), meta: typeof t.tabId === 'string' ? { sessionId: t.tabId } : undefined, records: bubbles }];
  });
}

/**
 * Cursor's `state.vscdb` (`globalStorage/` and `workspaceStorage/<hash>/`): SQLite key-value tables, the chats
 * in `cursorDiskKV` (composers and bubbles, Cursor 0.43 on) and, in older workspaces, `ItemTable`'s chat panel
 * data. A database holding no chat says what it holds instead of showing nothing.
 */
export const cursorDbContainer: Container = {
  id: 'cursor-vscdb',
  label: 'Cursor state database',
  format: 'cursor-chats',
  extensions: ['.vscdb'],
  listed: LISTED_BY_NAME['cursor-vscdb'].listed,
  holds: (file, head) => /\.vscdb$/i.test(file) && isSqlite(head),
  open(file, bytes, limits) {
    const db = openDatabase(file, bytes, limits);
    try {
      const tables = db.tables();
      const kv = tables.has('cursorDiskKV') ? composers(db) : { conversations: [], empty: 0, ids: new Set<string>() };
      const ws = tables.has('ItemTable') ? workspaceComposers(db, kv.ids) : { inline: [], elsewhere: [] };
      const conversations = [...kv.conversations, ...ws.inline, ...(tables.has('ItemTable') ? chatTabs(db) : []), ...ws.elsewhere];
      if (conversations.length === 0) {
        const keys = tables.has('ItemTable') ? db.all('SELECT count(*) AS n FROM ItemTable')[0]?.n : 0;
        conversations.push({ title: `no chats in this database (${String(keys)} editor-state keys, tables: ${[...tables].join(', ')})`, records: [] });
      }
      return { text: storeText({ store: 'cursor', conversations, ...(kv.empty > 0 ? { other: kv.empty } : {}) }), format: 'cursor-chats', name: nameOf(file), readOnly: 'Cursor’s own database (it may be writing it now): Export (Ctrl+K) or the CLI’s `convert` gives an editable copy' };
    } finally {
      db.close();
    }
  },
};
