import { chordMatches, COMMAND_INFO, parseAccelerator, shortcutLabel } from '../../../shared/commands.js';
import { onMac } from '../platform.js';
import { useApp, type AppState } from '../../store/index.js';
import { branchSides, hasBranches } from '../compare/branches.js';

interface Behaviour {
  id: string;
  /** Plain-key shortcuts are ignored while typing; modifier ones work everywhere. */
  whileTyping?: boolean;
  enabled(s: AppState): boolean;
  run(s: AppState): void;
}

const open = (s: AppState) => s.skeleton !== undefined;
/** Whether the open file's messages can be changed (not in another app's store, which is read-only here). */
const editable = (s: AppState) => open(s) && s.skeleton!.readOnly?.edits !== false;
const selected = (s: AppState) => editable(s) && s.selected !== undefined;
/**
 * A name for Save As: `x.copy.<ext>` beside the file; a file read through a container (a compressed history,
 * an archive, a log) is saved in its format's own extension (`rollout.jsonl.zst` → `rollout.copy.jsonl`).
 */
export const copyName = (path: string | undefined, extension?: string): string | undefined => {
  if (!path) return undefined;
  const plain = path.replace(/\.(zst|gz)$/i, '');
  const ext = extension ?? (/(\.[^./]+)$/.exec(plain)?.[1] ?? '');
  return `${plain.replace(/\.[^./]+$/, '')}.copy${ext}`;
};

/** What each command does, by id; labels and shortcuts come from app/shared/commands.ts (menus use them too). */
const BEHAVIOURS: Behaviour[] = [
  { id: 'palette', whileTyping: true, enabled: () => true, run: (s) => s.setPalette(!s.paletteOpen) },
  { id: 'go-to', whileTyping: true, enabled: open, run: (s) => s.setPalette(true, '#') },
  { id: 'open-folder', whileTyping: true, enabled: () => true, run: (s) => void s.chooseFolder() },
  { id: 'save', whileTyping: true, enabled: (s) => !!s.edit?.dirty && !s.saving && !s.skeleton?.readOnly, run: (s) => void s.save() },
  { id: 'undo', enabled: (s) => !!s.edit?.canUndo, run: (s) => void s.undo() },
  { id: 'redo', enabled: (s) => !!s.edit?.canRedo, run: (s) => void s.redo() },
  { id: 'window', enabled: open, run: (s) => s.toggleWindow() },
  { id: 'search-all', whileTyping: true, enabled: () => true, run: (s) => s.setSearchAllOpen(!s.searchAllOpen) },
  { id: 'next-match', whileTyping: true, enabled: (s) => open(s) && (s.searchMatches?.size ?? 0) > 0, run: (s) => s.goToMatch(1) },
  { id: 'prev-match', whileTyping: true, enabled: (s) => open(s) && (s.searchMatches?.size ?? 0) > 0, run: (s) => s.goToMatch(-1) },
  { id: 'transcript', enabled: open, run: (s) => s.toggleTranscript() },
  { id: 'search', enabled: open, run: () => (document.querySelector('[data-testid="search"]') as HTMLInputElement | null)?.focus() },
  { id: 'edit', enabled: selected, run: (s) => s.setEditing(s.selected) },
  { id: 'add-before', enabled: selected, run: (s) => void addAt(s, s.selected!) },
  { id: 'add', enabled: editable, run: (s) => void addAt(s, s.selected === undefined ? s.skeleton!.count : s.selected + 1) },
  { id: 'system', enabled: editable, run: (s) => void s.applyEdit({ type: 'insert', index: 0, messages: [{ role: 'System', content: 'You are a helpful assistant.' }] }).then((ok) => ok && useApp.getState().setEditing(0)) },
  { id: 'duplicate', enabled: (s) => editable(s) && s.targets().length > 0, run: (s) => void s.applyEdit({ type: 'duplicate', indexes: s.targets() }) },
  { id: 'delete', enabled: (s) => editable(s) && s.targets().length > 0, run: (s) => s.requestDelete(s.targets()) },
  { id: 'move-up', enabled: (s) => selected(s) && s.selected! > 0, run: (s) => void moveSelected(s, -1) },
  { id: 'move-down', enabled: (s) => selected(s) && s.selected! < s.skeleton!.count - 1, run: (s) => void moveSelected(s, 1) },
  { id: 'revert', enabled: (s) => !!s.edit?.dirty, run: (s) => void s.revert() },
  { id: 'save-as', whileTyping: true, enabled: editable, run: (s) => s.setSaveAsName(copyName(s.openPath, s.skeleton?.readOnly?.saveAs)) },
  { id: 'history', enabled: open, run: (s) => s.setDialog('history') },
  { id: 'compare', enabled: open, run: (s) => s.setDialog('compare') },
  { id: 'compare-files', enabled: (s) => s.compareMarks.length === 2, run: (s) => void s.openCompare({ a: { path: s.compareMarks[0], conversation: 0 }, b: { path: s.compareMarks[1], conversation: 0 } }) },
  { id: 'compare-branches', enabled: hasBranches, run: (s) => void branchSides(s).then((sides) => sides && useApp.getState().openCompare(sides)) },
  { id: 'sessions-or-files', enabled: () => true, run: (s) => s.setSidebarMode(s.sidebarMode === 'sessions' ? 'files' : 'sessions') },
  // The list's one tab stop (the open session, else the first), as Tab would reach it past the filters.
  { id: 'focus-list', whileTyping: true, enabled: () => true, run: () => ['[data-testid="session-list"] [tabindex="0"]', '[data-testid="file-list"] [aria-current="true"]', '[data-testid="file-list"] button'].map((q) => document.querySelector<HTMLElement>(q)).find(Boolean)?.focus() },
  { id: 'usage', enabled: () => true, run: (s) => s.setUsageOpen(true) },
  // Closed for good: not back to the file open before it, as closing one does.
  {
    id: 'overview',
    enabled: open,
    run: (s) => {
      useApp.setState({ previousOpen: undefined });
      s.closeConversation();
    },
  },
  { id: 'export-json', enabled: open, run: (s) => void s.exportAs('json') },
  { id: 'export-yaml', enabled: open, run: (s) => void s.exportAs('yaml') },
  { id: 'export-markdown', enabled: open, run: (s) => void s.exportAs('markdown') },
  { id: 'export-text', enabled: open, run: (s) => void s.exportAs('text') },
  { id: 'share', whileTyping: true, enabled: () => true, run: (s) => s.setShare(s.skeleton ? 'conversation' : 'folder') },
  { id: 'tokens-pane', enabled: () => true, run: (s) => s.setTokensHidden(!s.tokensHidden) },
  { id: 'share-folder', enabled: () => true, run: (s) => s.setShare('folder') },
  { id: 'secrets', enabled: (s) => (s.findings?.open ?? 0) > 0, run: (s) => s.setSecretsOnly(!s.secretsOnly) },
  { id: 'redact-all', enabled: (s) => editable(s) && (s.findings?.open ?? 0) > 0, run: (s) => void s.redactFindings() },
];

export interface Command extends Behaviour {
  /** Whether a key event triggers it (made from the command's accelerator). */
  matches?(e: KeyboardEvent): boolean;
  label: string;
  shortcut?: string;
}

export const COMMANDS: Command[] = COMMAND_INFO.map((info) => {
  const behaviour = BEHAVIOURS.find((b) => b.id === info.id);
  if (!behaviour) throw new Error(`command ${info.id} has no behaviour`);
  // The keys are the menu's accelerator (and its aliases): what the palette shows is what works.
  const chords = [info.accelerator, ...(info.also ?? [])].filter((a): a is string => !!a).map(parseAccelerator);
  const matches = chords.length ? (e: KeyboardEvent) => chords.some((c) => chordMatches(c, e)) : undefined;
  return { ...behaviour, matches, label: info.label, shortcut: shortcutLabel(info.accelerator, onMac()) };
});

/** A command's shortcut as this platform writes it (for titles and notes). */
export function shortcutOf(id: string): string {
  return COMMANDS.find((c) => c.id === id)?.shortcut ?? '';
}

/** Runs a command by id (from Electron's menu). */
export function runCommand(id: string): void {
  const c = COMMANDS.find((x) => x.id === id);
  const state = useApp.getState();
  if (c && c.enabled(state)) c.run(state);
}

async function addAt(s: AppState, at: number): Promise<void> {
  // The new message opens in the editor: an empty row is only a start.
  if (await s.applyEdit({ type: 'insert', index: at, messages: [{ role: 'user', content: '' }] })) {
    useApp.getState().setEditing(at);
    useApp.setState({ editingAdded: true });
  }
}

async function moveSelected(s: AppState, delta: number): Promise<void> {
  const i = s.selected!;
  if (await moveMessages(s, [i], i + delta)) useApp.getState().select(i + delta);
}

/** Moves messages (asking first when that would separate a tool call from its result). */
export function moveMessages(s: AppState, indexes: number[], to: number): Promise<boolean> {
  return s.requestMove(indexes, to);
}

/** Runs the first enabled command bound to this key. */
export function handleCommandKey(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  const typing = !!t && (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || t.isContentEditable);
  const state = useApp.getState();
  let bound = false;
  for (const c of COMMANDS) {
    if (!c.matches?.(e) || (typing && !c.whileTyping)) continue;
    bound = true;
    if (!c.enabled(state)) continue;
    e.preventDefault();
    c.run(state);
    return true;
  }
  // A key bound to a command that cannot run now (Ctrl+S with nothing to save) is still not the browser's.
  if (bound && (e.ctrlKey || e.metaKey)) e.preventDefault();
  return false;
}
