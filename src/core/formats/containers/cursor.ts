import { isPlainObject } from '../../message.js';
import { storeText, type StoreText } from '../shared/store-codec.js';
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

/** The agent and composer chats of a global `state.vscdb`: each composer's bubbles, in the order its headers give. */
function composers(db: ReadOnlyDatabase): StoreText['conversations'] {
  const out: Array<StoreText['conversations'][number] & { at: number }> = [];
  const bubbleRows = new Map<string, Map<string, unknown>>();
  for (const row of db.all("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'bubbleId:%'")) {
    const [, composer, bubble] = String(row.key).split(':');
    if (!composer || !bubble) continue;
    let m = bubbleRows.get(composer);
    if (!m) bubbleRows.set(composer, (m = new Map()));
    m.set(bubble, json(row.value));
  }
  for (const row of db.all("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%'")) {
    const c = json(row.value);
    if (!isPlainObject(c)) continue;
    const id = typeof c.composerId === 'string' ? c.composerId : String(row.key).slice('composerData:'.length);
    const own = bubbleRows.get(id) ?? new Map<string, unknown>();
    let bubbles: unknown[];
    if (Array.isArray(c.fullConversationHeadersOnly) && c.fullConversationHeadersOnly.length > 0) {
      bubbles = c.fullConversationHeadersOnly.map((h) => {
        const bid = isPlainObject(h) ? String(h.bubbleId ?? '') : '';
        const b = own.get(bid);
        // A header whose bubble is gone: what the header says (its side), not nothing.
        return isPlainObject(b) ? b : { ...(isPlainObject(h) ? h : {}), text: '', missing: true };
      });
    } else if (Array.isArray(c.conversation)) bubbles = c.conversation;
    else if (isPlainObject(c.conversationMap) && Object.keys(c.conversationMap).length > 0) bubbles = Object.values(c.conversationMap);
    else bubbles = [];
    if (bubbles.length === 0) continue;
    const at = typeof c.createdAt === 'number' ? c.createdAt : 0;
    const title = composerTitle(c, bubbles);
    out.push({ at, ...(title ? { title } : {}), meta: { sessionId: id }, records: bubbles });
  }
  out.sort((a, b) => a.at - b.at);
  return out.map(({ at: _at, ...c }) => c);
}

/** The older chat panel of a workspace `state.vscdb` (`workbench.panel.aichat.view.aichat.chatdata`): its tabs. */
function chatTabs(db: ReadOnlyDatabase): StoreText['conversations'] {
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
  listed: (file) => /^state\.vscdb$/i.test(nameOf(file)) && /cursor/i.test(file),
  holds: (file, head) => /\.vscdb$/i.test(file) && isSqlite(head),
  open(file, bytes, limits) {
    const db = openDatabase(file, bytes, limits);
    try {
      const tables = db.tables();
      const conversations = [...(tables.has('cursorDiskKV') ? composers(db) : []), ...(tables.has('ItemTable') ? chatTabs(db) : [])];
      if (conversations.length === 0) {
        const keys = tables.has('ItemTable') ? db.all('SELECT count(*) AS n FROM ItemTable')[0]?.n : 0;
        conversations.push({ title: `no chats in this database (${String(keys)} editor-state keys, tables: ${[...tables].join(', ')})`, records: [] });
      }
      return { text: storeText({ store: 'cursor', conversations }), format: 'cursor-chats', name: nameOf(file), readOnly: 'Cursor’s own database (it may be writing it now): Export (Ctrl+K) or the CLI’s `convert` gives an editable copy' };
    } finally {
      db.close();
    }
  },
};
