import type { AppState } from '../../store/index.js';
import { partsAround } from '../../store/conversation.js';
import { COMMANDS } from './registry.js';
import { oneLine } from '../../../../src/core/util/one-line.js';

/** A line of the palette: a command, a file to open, or a message to go to. */
export interface PaletteEntry {
  id: string;
  label: string;
  shortcut?: string;
  enabled(s: AppState): boolean;
  run(s: AppState): void;
}

const FILES_SHOWN = 8;

/**
 * What the palette offers for a query: "42", "#42" or ":42" goes to message 42 of the open conversation;
 * other text finds commands by name, files by path (the files' names first) and sessions by title.
 */
export function paletteEntries(query: string, s: Pick<AppState, 'entries' | 'skeleton' | 'openPath'> & Partial<Pick<AppState, 'folderChoices' | 'provisional' | 'opening' | 'sessionsAnswer' | 'openConversationIndex'>>): PaletteEntry[] {
  const q = query.trim().toLowerCase();
  const out: PaletteEntry[] = [];
  const number = /^[#:]?(\d+)$/.exec(q);
  if (number && s.skeleton) {
    const n = Number(number[1]);
    const count = s.skeleton.count;
    // While a big file is read, a message past its head is gone to when it is read.
    const reading = s.provisional !== undefined && s.opening === true;
    // A session read a part at a time is numbered across its parts: the part holding the number is found when asked.
    const parted = partsAround(s);
    if (parted) {
      out.push({ id: `goto-${n}`, label: `Go to message ${n} of the session (its ${parted.parts.length} parts numbered as one)`, enabled: () => true, run: (st) => st.jumpTo(n) });
      // The rows of a later part are numbered from its own first message: that number is offered too.
      if (parted.at > 0 && n < count) out.push({ id: `goto-part-${n}`, label: `Go to message ${n} of this part (part ${parted.at + 1} of ${parted.parts.length}, as its rows are numbered)`, enabled: () => true, run: (st) => st.select(n) });
    } else out.push({
      id: `goto-${n}`,
      label: n < count ? `Go to message ${n}` : reading ? `Go to message ${n} (when the file is read: ${count.toLocaleString('en-US')} read so far)` : `Go to message ${n} (this conversation has ${count})`,
      enabled: () => n < count || reading,
      run: (st) => st.jumpTo(n),
    });
  } else if (number) {
    out.push({ id: `goto-${number[1]}`, label: `Go to message ${number[1]}: open a conversation first`, enabled: () => false, run: () => {} });
  }
  for (const c of COMMANDS) if (c.id !== 'palette' && c.label.toLowerCase().includes(q)) out.push(c);
  if (q && !number) {
    const name = (p: string) => p.slice(p.lastIndexOf('/') + 1).toLowerCase();
    const files = s.entries.filter((e) => e.path.toLowerCase().includes(q) && e.path !== s.openPath);
    files.sort((a, b) => Number(!name(a.path).includes(q)) - Number(!name(b.path).includes(q)) || a.path.length - b.path.length);
    for (const f of files.slice(0, FILES_SHOWN)) out.push({ id: `open-${f.path}`, label: `Open ${f.path}`, enabled: () => true, run: (st) => void st.openConversation(f.path) });
    // Sessions by their titles, as the session list names them (the most recently active first).
    const sessions = (s.sessionsAnswer?.sessions ?? []).filter((x) => !!x.title && x.title.toLowerCase().includes(q) && !(x.path === s.openPath && x.conversation === s.openConversationIndex));
    sessions.sort((a, b) => (b.lastAt ?? '').localeCompare(a.lastAt ?? ''));
    for (const x of sessions.slice(0, FILES_SHOWN)) {
      const what = [x.kind === 'subagent' ? 'sub-agent' : undefined, x.tool].filter(Boolean).join(', ');
      out.push({ id: `session-${x.path}#${x.conversation}`, label: `Open session “${oneLine(x.title!, 90)}”${what ? ` (${what})` : ''}`, enabled: () => true, run: (st) => void st.openConversation(x.path, x.conversation) });
    }
    const current = s.folderChoices?.current[0];
    for (const r of s.folderChoices?.recent ?? []) {
      if (r.path === current || !(`open folder ${r.path}`.toLowerCase().includes(q))) continue;
      out.push({ id: `folder-${r.path}`, label: `Open Folder ${r.path}`, enabled: () => true, run: (st) => void st.openFolder(r.path) });
    }
    // Where agents keep sessions, by the tool's name or the folder's path.
    for (const p of s.folderChoices?.places ?? []) {
      if (p.path === current || !`open ${p.name} ${p.path}`.toLowerCase().includes(q)) continue;
      out.push({ id: `place-${p.path}`, label: `Open ${p.name} (${p.path})`, enabled: () => true, run: (st) => void st.openFolder(p.path) });
    }
  }
  return out;
}
