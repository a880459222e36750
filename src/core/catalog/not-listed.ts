import { unreadStoreById } from '../formats/containers/unread-stores.js';
import type { NotListedSummary } from './not-listed-words.js';
import type { NotListedFile } from './store.js';

/** How many files a summary names (a folder of thousands of logs names the first ones). */
const NAMED_FILES = 40;

/** The files the session list does not show, summed up by why (databases by what they hold), the first named. */
export function summariseNotListed(files: readonly NotListedFile[], display: (path: string) => string = (p) => p): NotListedSummary | undefined {
  if (files.length === 0) return undefined;
  const databases = new Map<string, number>();
  const count = { log: 0, empty: 0, unreadable: 0 };
  const named: NotListedSummary['files'] = [];
  for (const f of files) {
    const store = f.why === 'unread' ? unreadStoreById(f.format) : undefined;
    if (store) databases.set(store.label, (databases.get(store.label) ?? 0) + 1);
    else count[f.why === 'unread' ? 'unreadable' : f.why]++;
    const label = store?.label ?? f.formatLabel;
    if (named.length < NAMED_FILES) named.push({ path: display(f.path), why: f.why, ...(label ? { label } : {}), ...(store?.readFrom ? { readFrom: store.readFrom } : {}) });
  }
  return { databases: [...databases].map(([label, n]) => ({ label, files: n })), logs: count.log, empty: count.empty, unreadable: count.unreadable, files: named };
}
