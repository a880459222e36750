import { useCallback, useEffect, useRef, useState } from 'react';
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

  const browse = useCallback(
    async (path?: string, showHidden = hidden) => {
      try {
        const next = await request('folder:browse', { path, hidden: showHidden });
        setListing(next);
        setTyped(next.path);
        setActive(0);
        setBrowseError(undefined);
      } catch (e) {
        setBrowseError((e as Error).message);
      }
    },
    [hidden],
  );
  useEffect(() => {
    if (choices?.browse) void browse();
  }, [choices?.browse]);
  useEffect(() => {
    list.current?.querySelector(`[data-folder="${active}"]`)?.scrollIntoView({ block: 'nearest' });
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
    <div className="dialog" role="dialog" aria-modal="true" aria-label="Open a folder" onClick={close} onKeyDown={closeOnEscape(close)}>
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
            void browse(typed.trim());
          }}
        >
          <button type="button" disabled={!listing?.parent} onClick={() => listing?.parent && void browse(listing.parent)} aria-label="Parent folder" title="Parent folder (Backspace)">
            ↑
          </button>
          <input
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
                void browse(listing?.path, e.target.checked);
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
            else if (e.key === 'Enter' && dirs[active]) void (e.ctrlKey || e.metaKey ? open(dirs[active].path) : browse(dirs[active].path));
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
