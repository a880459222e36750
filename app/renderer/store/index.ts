import { create } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createConversationSlice, type ConversationSlice } from './conversation.js';
import { createDirectorySlice, type DirectorySlice } from './directory.js';
import { createTokensSlice, type TokensSlice } from './tokens.js';
import { createUiSlice, type UiSlice } from './ui.js';
import { createWindowSlice, type WindowSlice } from './window.js';
import { createEditingSlice, type EditingSlice } from './editing.js';
import { createSearchSlice, type SearchSlice } from './search.js';
import { createLayoutSlice, type LayoutSlice } from './layout.js';
import { createFoldersSlice, type FoldersSlice } from './folders.js';
import { createLinksSlice, type LinksSlice } from './links.js';
import { createSecretsSlice, type SecretsSlice } from './secrets.js';
import { createTranscriptSlice, type TranscriptSlice } from './transcript.js';
import { createCompareSlice, type CompareSlice } from './compare.js';
import { createCatalogSlice, type CatalogSlice } from './catalog.js';

export type AppState = DirectorySlice & ConversationSlice & TokensSlice & UiSlice & WindowSlice & EditingSlice & SearchSlice & LayoutSlice & FoldersSlice & LinksSlice & SecretsSlice & TranscriptSlice & CompareSlice & CatalogSlice;

/** One store, one slice per domain. */
export const useApp = create<AppState>()((set, get, api) => ({
  ...createDirectorySlice(set, get, api),
  ...createConversationSlice(set, get, api),
  ...createTokensSlice(set, get, api),
  ...createUiSlice(set, get, api),
  ...createWindowSlice(set, get, api),
  ...createEditingSlice(set, get, api),
  ...createSearchSlice(set, get, api),
  ...createLayoutSlice(set, get, api),
  ...createFoldersSlice(set, get, api),
  ...createLinksSlice(set, get, api),
  ...createSecretsSlice(set, get, api),
  ...createTranscriptSlice(set, get, api),
  ...createCompareSlice(set, get, api),
  ...createCatalogSlice(set, get, api),
}));

// A file's own default strategy, once its skeleton says what it is (until the user picks one).
useApp.subscribe((s, prev) => {
  if (s.skeleton && s.skeleton.path !== prev.skeleton?.path && s.strategyId === prev.strategyId) s.strategyForFile(s.skeleton);
});

// The files a session is spread over, once per file shown and again as it grows (a sub-agent starts).
let linksTimer: ReturnType<typeof setTimeout> | undefined;
useApp.subscribe((s, prev) => {
  if (!s.skeleton || (s.skeleton.path === prev.skeleton?.path && s.skeleton.conversation === prev.skeleton?.conversation && s.skeleton.count === prev.skeleton?.count)) return;
  const now = s.skeleton.path !== prev.skeleton?.path;
  if (now && s.links && s.links.path !== s.skeleton.path) useApp.setState({ links: undefined });
  clearTimeout(linksTimer);
  linksTimer = setTimeout(() => void useApp.getState().loadLinks(), now ? 0 : 1000);
});

// What the conversation shown holds of secrets and personal data: looked for once it is read (not from a
// file's head), again a moment after it changes (only the records an edit or an append brought are new).
let findingsTimer: ReturnType<typeof setTimeout> | undefined;
useApp.subscribe((s, prev) => {
  const k = s.skeleton;
  const p = prev.skeleton;
  if (!k || k.version < 0 || (p && k.path === p.path && k.conversation === p.conversation && k.version === p.version)) return;
  const moved = !p || k.path !== p.path || k.conversation !== p.conversation;
  if (moved && (s.findings || s.secretsOnly || s.secretsNote)) useApp.setState({ findings: undefined, findingsError: undefined, secretsOnly: false, secretsNote: undefined });
  clearTimeout(findingsTimer);
  findingsTimer = setTimeout(() => void useApp.getState().loadFindings(), moved ? 0 : 800);
});

// Every edit state names its file: whether that file has unsaved edits follows from it, whoever set it.
useApp.subscribe((s, prev) => {
  const edit = s.edit;
  if (!edit || edit === prev.edit || s.unsaved.has(edit.path) === edit.dirty) return;
  const unsaved = new Set(s.unsaved);
  if (edit.dirty) unsaved.add(edit.path);
  else unsaved.delete(edit.path);
  useApp.setState({ unsaved });
});

/**
 * The named fields of the store, re-rendering only when one of them changes (shallowly): what a component
 * reads, not the whole store.
 */
export function useAppPick<K extends keyof AppState>(...keys: K[]): Pick<AppState, K> {
  return useApp(
    useShallow((s) => {
      const picked = {} as Pick<AppState, K>;
      for (const k of keys) picked[k] = s[k];
      return picked;
    }),
  );
}
