import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { request } from '../../api/client.js';
import type { RequestOutput } from '../../../shared/contract.js';
import { useApp } from '../../store/index.js';
import { closeOnEscape } from '../close-on-escape.js';
import { age } from '../roles.js';

type Listing = RequestOutput<'folder:browse'>;

/** Browser mode's Open Folder: recent folders, where agents keep sessions, and a browser of folders (never files). */
export function OpenFolderDialog() {
  const close = useApp((s) => s.closeFolderDialog);
  const choices = useApp((s) => s.folderChoices);
  const failure = useApp((s) => s.folderError);
  const openFolder = useApp((s) => s.openFolder);
  const now = useApp((s) => s.clock);
  const [listing, setListing] = useState<Listing | undefined>();
  const [typed, setTyped] = useState('');
  const [hidden, setHidden] = useState(false);
  const [browseError, setBrowseError] = useState<string | undefined>();
  const [active, setActive] = useState(0);
  const [opening, setOpening] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const pathBox = useRef<HTMLInputElement>(null);
  const listingRef = useRef<Listing | undefined>(undefined);
  // Where the focus goes once a new listing is drawn (the row that had it is gone with the old one).
  const [focusAfter, setFocusAfter] = useState<{ to: 'list' | 'path' } | undefined>();
  // In the same commit as the listing (a layout effect): a key pressed once it shows is never undone by a late focus.
  useLayoutEffect(() => {
    if (!focusAfter) return;
    // The keys go on working where they were: in the list (its first folder), or in the path box.
    const row = list.current?.querySelector<HTMLElement>('[data-folder="0"]');
    if (focusAfter.to === 'list' && row) row.focus();
    else pathBox.current?.focus();
  }, [focusAfter, listing]);
  listingRef.current = listing;

  const browse = useCallback(
    async (path?: string, showHidden = hidden, focus: 'list' | 'path' = 'list') => {
      try {
        const next = await request('folder:browse', { path, hidden: showHidden });
        setListing(next);
        setTyped(next.path);
        setActive(0);
        setBrowseError(undefined);
        setFocusAfter({ to: focus });
      } catch (e) {
        setBrowseError((e as Error).message);
        // The box goes back to the folder listed: what it shows, the list and the button agree.
        setTyped((t) => listingRef.current?.path ?? t);
        pathBox.current?.focus();
      }
    },
    [hidden],
  );
  useEffect(() => {
    if (choices?.browse) void browse(undefined, hidden, 'path');
  }, [choices?.browse]);
  useEffect(() => {
    const row = list.current?.querySelector<HTMLElement>(`[data-folder="${active}"]`);
    row?.scrollIntoView({ block: 'nearest' });
    // Arrow keys move the focus, not only the highlight.
    if (row && list.current?.contains(document.activeElement)) row.focus();
  }, [active]);

  const open = async (path: string) => {
    setOpening(true);
    await openFolder(path);
    setOpening(false);
  };
  const dirs = listing?.dirs ?? [];
  const current = choices?.current[0];
  const recent = (choices?.recent ?? []).filter((r) => r.path !== current);
  const error = browseError ?? failure;

  return (
    <div
      className="dialog"
      role="dialog"
      aria-modal="true"
      aria-label="Open a folder"
      onClick={close}
      onKeyDown={(e) => {
        closeOnEscape(close)(e);
        // Ctrl+Enter opens: the folder chosen in the list, else the folder listed (an empty one too).
        if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
          e.preventDefault();
          e.stopPropagation();
          const inList = list.current?.contains(document.activeElement) && dirs[active];
          const typedPath = typed.trim();
          if (inList) void open(dirs[active].path);
          else if (document.activeElement === pathBox.current && typedPath && typedPath !== listing?.path) void open(typedPath);
          else if (listing) void open(listing.path);
        }
      }}
    >
      <div className="dialog-body open-folder" onClick={(e) => e.stopPropagation()} data-testid="open-folder">
        <div className="panel-head">
          <h2>Open a folder</h2>
          <button onClick={close} aria-label="Close">×</button>
        </div>
        {(recent.length > 0 || (choices?.places.length ?? 0) > 0) && (
          <div className="folder-shortcuts">
            <h3 className="muted small">{recent.length ? 'Recent folders' : 'Where agents keep sessions'}</h3>
            {recent.map((r) => (
              <button key={r.path} className="folder-choice" onClick={() => void open(r.path)} title={`Open ${r.path}`} data-testid="folder-recent">
                <span className="name">{r.name}</span>
                <span className="muted path">{r.path}</span>
                <span className="muted when">opened {age(r.openedAt, now)} ago</span>
              </button>
            ))}
            {recent.length > 0 && (choices?.places.length ?? 0) > 0 && <h3 className="muted small">Where agents keep sessions</h3>}
            {choices?.places.map((p) => (
              <button key={p.path} className="folder-choice" onClick={() => void browse(p.path)} title={p.path} data-testid="folder-place">
                <span className="name">{p.name}</span>
                <span className="muted path">{p.path}</span>
              </button>
            ))}
          </div>
        )}
        <form
          className="folder-path"
          onSubmit={(e) => {
            e.preventDefault();
            void browse(typed.trim(), hidden, 'path');
          }}
        >
          <button type="button" disabled={!listing?.parent} onClick={() => listing?.parent && void browse(listing.parent)} aria-label="Parent folder" title="Parent folder (Backspace)">
            ↑
          </button>
          <input
            ref={pathBox}
            autoFocus
            aria-label="Folder path"
            data-testid="folder-path"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' && dirs.length) {
                e.preventDefault();
                list.current?.querySelector<HTMLElement>(`[data-folder="${active}"]`)?.focus();
              }
            }}
            spellCheck={false}
          />
          <label className="muted small">
            <input
              type="checkbox"
              checked={hidden}
              onChange={(e) => {
                setHidden(e.target.checked);
                void browse(listing?.path, e.target.checked, 'path');
              }}
            />{' '}
            hidden folders
          </label>
        </form>
        <div
          className="folder-list"
          ref={list}
          role="listbox"
          aria-label="Folders"
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => Math.min(dirs.length - 1, a + 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
            else if (e.key === 'Enter' && !(e.ctrlKey || e.metaKey) && dirs[active]) void browse(dirs[active].path);
            else if (e.key === 'Backspace' && listing?.parent) void browse(listing.parent);
            else return;
            e.preventDefault();
          }}
        >
          {dirs.length === 0 && listing && <p className="muted empty">No folders in here{hidden ? '' : ' (hidden ones are not shown)'}.</p>}
          {dirs.map((d, i) => (
            <div
              key={d.path}
              data-folder={i}
              role="option"
              tabIndex={i === active ? 0 : -1}
              aria-selected={i === active}
              className={`folder-row ${i === active ? 'active' : ''}`}
              onClick={() => setActive(i)}
              onDoubleClick={() => void browse(d.path)}
              onFocus={() => setActive(i)}
            >
              <span className="name">{d.name}/</span>
              <button className="link" onClick={() => void browse(d.path)} tabIndex={-1}>
                inside
              </button>
              <button className="link" onClick={() => void open(d.path)} tabIndex={-1} data-testid="folder-open-row">
                open
              </button>
            </div>
          ))}
          {listing?.truncated && <p className="muted small">The first {dirs.length.toLocaleString('en-US')} folders are shown: type a path to go further.</p>}
        </div>
        {error && (
          <p className="error-text" role="alert" data-testid="folder-error">
            {error}
          </p>
        )}
        <div className="dialog-foot">
          <span className="muted small">Enter or double-click goes inside · Ctrl+Enter opens · Backspace goes up · within {listing?.scope.join(', ') ?? 'your home folder'}</span>
          <button className="primary" disabled={!listing || opening} onClick={() => listing && void open(listing.path)} data-testid="folder-open">
            {opening ? 'Opening…' : `Open ${listing ? listing.path.split(/[\\/]/).pop() || listing.path : 'this folder'}`}
          </button>
        </div>
      </div>
    </div>
  );
}
