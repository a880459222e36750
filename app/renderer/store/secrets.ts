import type { StateCreator } from 'zustand';
import type { Finding, RequestOutput } from '../../shared/contract.js';
import { request, type RequestError } from '../api/client.js';
import type { AppState } from './index.js';

/** What was found in the conversation shown, by row (dismissed ones too: the detail pane lists them apart). */
export interface Findings {
  path: string;
  conversation: number;
  /** The skeleton's version they were found in. */
  version: number;
  list: Finding[];
  byRow: Map<number, Finding[]>;
  /** Rows with a finding not dismissed (the filter's rows). */
  rows: Set<number>;
  /** Findings not dismissed (secrets and personal data). */
  open: number;
  /** User names in paths not dismissed (their own class: replaced by <user> when shared, no row is marked for them). */
  paths: number;
  /** Findings dismissed as false positives, each once per message. */
  dismissed: number;
  truncated: boolean;
  elsewhere: number;
}

export type ShareScope = 'conversation' | 'selection' | 'file' | 'folder';

export interface SecretsSlice {
  findings: Findings | undefined;
  findingsError: string | undefined;
  /** A scan of the conversation shown is under way. */
  scanning: boolean;
  /** Only the rows with a secret or personal datum. */
  secretsOnly: boolean;
  /** What the last redaction did, said until another file is shown. */
  secretsNote: string | undefined;
  setSecretsOnly(on: boolean): void;
  loadFindings(): Promise<void>;
  dismissFindings(keys: string[], dismissed: boolean): Promise<void>;
  /** Every finding not dismissed of these rows (all when none are named) replaced, as one undoable edit. */
  redactFindings(indexes?: number[]): Promise<number | undefined>;
  /** The Share dialog, open on a scope. */
  share: ShareScope | undefined;
  setShare(scope: ShareScope | undefined): void;
  /** `paths`: with `redact`, user names in paths replaced by <user>. */
  exportShared(scope: ShareScope, to: 'html' | 'markdown', redact: boolean, paths?: boolean): Promise<RequestOutput<'share:export'>>;
}

/**
 * Each finding once per message: a value a message holds twice (Claude Code keeps a tool's output in the
 * result and again in `toolUseResult`) is one thing to look at, one to redact.
 */
export function distinctFindings(list: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return list.filter((f) => {
    const k = `${f.index}:${f.key}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function indexed(list: Finding[], meta: Omit<Findings, 'list' | 'byRow' | 'rows' | 'open' | 'paths' | 'dismissed'>): Findings {
  const byRow = new Map<number, Finding[]>();
  const rows = new Set<number>();
  for (const f of list) {
    let at = byRow.get(f.index);
    if (!at) byRow.set(f.index, (at = []));
    at.push(f);
    if (!f.dismissed && f.kind !== 'path') rows.add(f.index);
  }
  const open = distinctFindings(list.filter((f) => !f.dismissed && f.kind !== 'path')).length;
  // A user name counted once however many lines hold it (a session's every line has its cwd).
  const paths = new Set(list.filter((f) => !f.dismissed && f.kind === 'path').map((f) => f.key)).size;
  const dismissed = distinctFindings(list.filter((f) => f.dismissed)).length;
  return { ...meta, list, byRow, rows, open, paths, dismissed };
}

/** A file to download (the browser) or save (Electron turns a download into a save dialog). */
export function download(filename: string, text: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const createSecretsSlice: StateCreator<AppState, [], [], SecretsSlice> = (set, get) => ({
  findings: undefined,
  findingsError: undefined,
  scanning: false,
  secretsOnly: false,
  secretsNote: undefined,
  setSecretsOnly: (secretsOnly) => set({ secretsOnly }),
  loadFindings: async () => {
    const skeleton = get().skeleton;
    if (!skeleton || skeleton.version < 0) return;
    const { path, conversation, version } = skeleton;
    set({ scanning: true });
    try {
      const answer = await request('secrets:list', { path, conversation });
      const now = get().skeleton;
      if (now?.path !== path || now.conversation !== conversation) return;
      set({ findings: indexed(answer.findings, { path, conversation, version, truncated: answer.truncated, elsewhere: answer.elsewhere }), findingsError: undefined });
    } catch (e) {
      if (get().skeleton?.path === path) set({ findingsError: (e as Error).message });
    } finally {
      if (get().skeleton?.path === path) set({ scanning: false });
    }
  },
  dismissFindings: async (keys, dismissed) => {
    const f = get().findings;
    if (!f || keys.length === 0) return;
    await request('secrets:dismiss', { path: f.path, keys, dismissed });
    const wanted = new Set(keys);
    const now = get().findings;
    if (now !== f) return;
    set({ findings: indexed(f.list.map((x) => (wanted.has(x.key) ? { ...x, dismissed } : x)), f) });
  },
  redactFindings: async (indexes) => {
    const path = get().openPath;
    if (!path) return undefined;
    try {
      const state = await request('secrets:redact', { path, conversation: get().openConversationIndex, version: get().skeleton?.editVersion ?? -1, ...(indexes ? { indexes } : {}) });
      const { redacted, signed, ...edit } = state;
      await get().afterEdit(edit);
      const resumable = signed ? ` ${signed} reasoning block${signed === 1 ? '' : 's'} signed by the API changed: resumed, the session is refused there (share it rather than resume it).` : '';
      set({ secretsNote: redacted === 0 ? 'Nothing left to redact here.' : `Redacted ${redacted.toLocaleString('en-US')} finding${redacted === 1 ? '' : 's'} in place: Undo puts them back until you save; Save writes the file without them.${resumable}` });
      // With every one redacted, the filter would show nothing.
      if (!indexes) set({ secretsOnly: false });
      return redacted;
    } catch (e) {
      if (!(await get().refusedAsStale(e))) set({ saveError: { code: (e as RequestError).code, message: (e as Error).message } });
      return undefined;
    }
  },
  share: undefined,
  setShare: (share) => set({ share }),
  exportShared: async (scope, to, redact, paths = true) => {
    if (scope === 'folder') return request('share:export-folder', { to, redact, paths });
    const path = get().openPath;
    if (!path) throw new Error('no conversation is open');
    const s = get();
    return request('share:export', { path, conversation: s.openConversationIndex, to, scope, redact, paths, ...(scope === 'selection' ? { indexes: s.targets() } : {}) });
  },
});
