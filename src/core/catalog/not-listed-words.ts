/**
 * What the opened folders hold that the session list does not show (Catalog.notListed, summed up): databases of
 * tools not read here by what they hold, and how many logs and indexes, files of no message and files that do not
 * read; `files` names the first of them, each with why. Pure: the app's list and the CLI's `sessions` say it alike.
 */
export interface NotListedSummary {
  databases: Array<{ label: string; files: number }>;
  logs: number;
  empty: number;
  unreadable: number;
  files: Array<{ path: string; why: 'unread' | 'unreadable' | 'log' | 'empty'; label?: string; readFrom?: string }>;
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** How many files the summary counts. */
export const notListedTotal = (n: NotListedSummary): number => n.databases.reduce((k, d) => k + d.files, 0) + n.logs + n.empty + n.unreadable;

/** "Not listed: 2 databases not read (Goose sessions, Zed threads) · 9 logs and indexes · 1 file of no message". */
export function notListedText(n: NotListedSummary, lead = 'Not listed: '): string | undefined {
  const databases = n.databases.reduce((k, d) => k + d.files, 0);
  const parts = [
    databases > 0 ? `${count(databases, 'database')} not read (${n.databases.map((d) => (d.files > 1 ? `${d.label} ×${d.files}` : d.label)).join(', ')})` : undefined,
    n.logs > 0 ? count(n.logs, 'log or index', 'logs and indexes') : undefined,
    n.empty > 0 ? `${count(n.empty, 'file')} of no message` : undefined,
    n.unreadable > 0 ? `${count(n.unreadable, 'file')} that ${n.unreadable === 1 ? 'does' : 'do'} not read` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? `${lead}${parts.join(' · ')}` : undefined;
}

const WHY: Record<NotListedSummary['files'][number]['why'], string> = {
  unread: 'a database of a tool not read here',
  log: 'a log or index kept beside sessions (searched, not a session)',
  empty: 'no message (titles of other sessions, an empty file)',
  unreadable: 'does not read',
};

/** Each file named with what it is and why it is not listed: "zed/threads/threads.db: Zed threads, a database of a tool not read here". */
export const notListedLines = (n: NotListedSummary): string[] => n.files.map((f) => `${f.path}: ${f.label && f.why !== 'unreadable' ? `${f.label}, ` : ''}${f.readFrom ? `not read as sessions: they are read from ${f.readFrom}` : WHY[f.why]}`);
