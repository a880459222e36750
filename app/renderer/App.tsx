import { useEffect } from 'react';
import { countingModel } from '../../src/core/models.js';
import { request, subscribe } from './api/client.js';
import { ConversationView } from './features/ConversationView.js';
import { Sidebar } from './features/sidebar/Sidebar.js';
import { TokenSummary } from './features/summary/TokenSummary.js';
import { TopBar } from './features/topbar/TopBar.js';
import { WindowPanel } from './features/window/WindowPanel.js';
import { Palette } from './features/commands/Palette.js';
import { SearchAllDialog } from './features/search/SearchAllDialog.js';
import { Splitter } from './features/Splitter.js';
import { HistoryDialog } from './features/commands/HistoryDialog.js';
import { ShareDialog } from './features/secrets/ShareDialog.js';
import { MergeDialog } from './features/commands/MergeDialog.js';
import { CompareDialog } from './features/commands/CompareDialog.js';
import { OpenFolderDialog } from './features/folders/OpenFolderDialog.js';
import { Compare } from './features/compare/index.js';
import { UsageDialog } from './features/sessions/UsageDialog.js';
import { handleCommandKey, runCommand, shortcutOf } from './features/commands/registry.js';
import { useApp, useAppPick } from './store/index.js';
import { DEFAULT_LAYOUT } from './store/layout.js';

/** True when nothing is loading: what end-to-end tests wait for instead of sleeping. */
function useReadiness() {
  const { listing, openPath, opening, skeleton, openError, counts, countProgress, pages } = useAppPick('listing', 'openPath', 'opening', 'skeleton', 'openError', 'counts', 'countProgress', 'pages');
  const ready = !listing && (!openPath || (!opening && (openError !== undefined || (skeleton !== undefined && !countProgress && counts !== undefined && (skeleton.count === 0 || pages.size > 0)))));
  useEffect(() => {
    document.body.dataset.ready = String(ready);
  }, [ready]);
}

const TABLE_KEYS = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End']);

/** Set when another folder opened: what was unsaved was given up already, when the user chose that folder. */
let startingOver = false;
/** A pending refresh of the Sessions list after the catalog said it read more. */
let catalogTimer: ReturnType<typeof setTimeout> | undefined;

/** Leaving with unsaved edits asks first (the browser's prompt; Electron shows its own dialog). */
function useUnsavedGuard(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const guard = (e: BeforeUnloadEvent) => {
      if (startingOver) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [dirty]);
}

export function App() {
  const app = useAppPick('layout', 'resize', 'skeleton', 'windowOpen', 'paletteOpen', 'searchAllOpen', 'usageOpen', 'dialog', 'folderDialogOpen', 'loadFolderChoices', 'refreshDirectory', 'share', 'tokensHidden', 'setTokensHidden');
  const dirty = useApp((s) => !!s.edit?.dirty);
  useReadiness();
  useUnsavedGuard(dirty);
  useEffect(() => {
    void app.loadFolderChoices();
    void request('settings:get', {})
      .then((s) => {
        useApp.setState({ modelChoice: s.model, model: countingModel(s.model, useApp.getState().skeleton?.model) });
        useApp.getState().applyUiPrefs(s.ui);
      }).catch(() => {}).finally(() => {
        void app.refreshDirectory();
        // Whether the folders hold agent sessions (the sidebar then lists them) is the catalog's to say.
        void useApp.getState().loadSessions();
      });
    const offs = [
      subscribe('dir:changed', (e) => {
        void useApp.getState().refreshDirectory();
        const s = useApp.getState();
        // A part of a file read a part at a time changes with its file.
        const mine = e.path === s.openPath || (!!s.openPath && s.openPath.startsWith(`${e.path}#part-`));
        if (mine && e.kind !== 'removed') void s.refreshConversation();
        // The open file was deleted or renamed: say so rather than keep showing what is no longer on disk.
        // With unsaved edits, they stay on screen and the banner offers to save them again or elsewhere.
        if (mine && e.kind === 'removed' && s.edit?.dirty) useApp.setState({ saveError: { code: 'GONE', message: `${e.path} was removed or renamed on disk.` } });
        else if (mine && e.kind === 'removed') {
          useApp.setState({ skeleton: undefined, openError: { path: e.path, message: `${e.path} was removed or renamed on disk.` } });
        }
      }),
      subscribe('dir:details', ({ root, entries }) => useApp.getState().applyDirDetails(root, entries)),
      // Another window's change to a file shown here (an edit, undo, reload, save): shown here too.
      subscribe('conversation:changed', ({ path, version }) => void useApp.getState().changedElsewhere(path, version)),
      subscribe('save:progress', ({ path, ...p }) => {
        if (path === useApp.getState().openPath && useApp.getState().saving) useApp.setState({ saveProgress: p });
      }),
      subscribe('tokens:partial', (p) => {
        const s = useApp.getState();
        if (p.path === s.openPath && p.conversation === s.openConversationIndex && p.model === s.model && !s.counts) useApp.setState({ firstCounts: p });
      }),
      subscribe('command:run', ({ id }) => runCommand(id)),
      // Another folder is open (this window asked, or another did): the page starts over on it.
      subscribe('folder:opened', () => {
        startingOver = true;
        location.reload();
      }),
      subscribe('search:progress', (status) => {
        const s = useApp.getState();
        useApp.setState({ searchIndex: status });
        // What the index has read since is searched too.
        if (s.searchAllOpen && s.searchAllQuery.trim() !== '') void s.runSearchAll();
      }),
      subscribe('catalog:progress', (status) => {
        useApp.setState({ catalogStatus: status });
        // The sessions read since (or an agent's new lines) are listed: asked again at most twice a second.
        if (catalogTimer === undefined)
          catalogTimer = setTimeout(() => {
            catalogTimer = undefined;
            const s = useApp.getState();
            if (s.sidebarMode === 'sessions' || !s.sidebarChosen) void s.loadSessions();
            if (s.usageOpen) void s.loadUsage();
          }, 500);
      }),
      subscribe('tokens:progress', (p) => {
        if (p.path === useApp.getState().openPath && p.done < p.total) useApp.setState({ countProgress: { done: p.done, total: p.total } });
      }),
    ];
    // Every shortcut comes from the command registry (the palette lists the same commands).
    const onKey = (e: KeyboardEvent) => {
      if (handleCommandKey(e)) return;
      // The focus fell to the page (an editor or a panel that had it closed): the table's keys still move the selection.
      // (or the transcript's, when it is the view)
      const grid = document.querySelector<HTMLElement>('[data-testid="message-grid"], [data-testid="transcript"]');
      if (grid && (document.activeElement === document.body || document.activeElement === null) && TABLE_KEYS.has(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        grid.focus();
        grid.dispatchEvent(new KeyboardEvent('keydown', { key: e.key, shiftKey: e.shiftKey, bubbles: true, cancelable: true }));
        return;
      }
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
      if (e.key === 'Escape' && !typing && !e.defaultPrevented) {
        // Esc closes the window panel when it is open; else, while a file is being read, it stops waiting for it.
        if (useApp.getState().windowOpen) useApp.getState().toggleWindow(false);
        else if (useApp.getState().opening) useApp.getState().closeConversation();
      }
    };
    window.addEventListener('keydown', onKey);
    const ticking = setInterval(() => useApp.setState({ clock: Date.now() }), 30_000);
    return () => {
      offs.forEach((off) => off());
      window.removeEventListener('keydown', onKey);
      clearInterval(ticking);
    };
  }, []);
  // The side column: the window panel when open, else the tokens pane unless put away (then a tab to bring it back).
  const sideShown = (app.windowOpen && app.skeleton !== undefined) || !app.tokensHidden;
  return (
    <div className="app">
      <TopBar />
      <div className="panes" style={{ gridTemplateColumns: `${app.layout.sidebar}px 5px minmax(0, 1fr) ${sideShown ? `5px ${app.layout.panel}px` : '0 28px'}` }}>
        <Sidebar />
        <Splitter label="Resize the folder list" vertical size={app.layout.sidebar} sign={1} onResize={(px) => app.resize('sidebar', px)} onReset={() => app.resize('sidebar', DEFAULT_LAYOUT.sidebar)} testid="split-sidebar" />
        <ConversationView />
        {sideShown ? <Splitter label="Resize the side panel" vertical size={app.layout.panel} sign={-1} onResize={(px) => app.resize('panel', px)} onReset={() => app.resize('panel', DEFAULT_LAYOUT.panel)} testid="split-panel" /> : <span />}
        {app.windowOpen && app.skeleton ? (
          <WindowPanel />
        ) : app.tokensHidden ? (
          <button className="pane-tab" onClick={() => app.setTokensHidden(false)} title={`Show the tokens pane (${shortcutOf('tokens-pane')})`} aria-label="Show the tokens pane" data-testid="show-tokens">
            Tokens
          </button>
        ) : (
          <TokenSummary />
        )}
      </div>
      {app.paletteOpen && <Palette />}
      {app.searchAllOpen && <SearchAllDialog />}
      {app.usageOpen && <UsageDialog />}
      {app.dialog === 'history' && <HistoryDialog />}
      {app.dialog === 'compare' && <CompareDialog />}
      {app.dialog === 'merge' && <MergeDialog />}
      {app.folderDialogOpen && <OpenFolderDialog />}
      {app.share && <ShareDialog />}
      <Compare />
    </div>
  );
}
