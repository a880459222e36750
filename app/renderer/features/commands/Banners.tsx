import { withPartners } from '../../store/editing.js';
import { copyName } from './registry.js';
import { useApp, useAppPick } from '../../store/index.js';

/** Conflicts, failed saves and tool-call integrity questions: nothing is overwritten or orphaned silently. */
export function Banners() {
  const { edit, saveError, pendingDelete, setPendingDelete, applyEdit, revert, save, saveAs, openPath, saveAsName, setSaveAsName, setDialog } = useAppPick('edit', 'saveError', 'pendingDelete', 'setPendingDelete', 'applyEdit', 'revert', 'save', 'saveAs', 'openPath', 'saveAsName', 'setSaveAsName', 'setDialog');
  const conflict = edit?.conflict || saveError?.code === 'CONFLICT';
  const gone = saveError?.code === 'GONE';
  const busy = saveError?.code === 'BUSY';
  const savedNote = useApp((s) => s.savedNote);
  const live = edit?.live;
  const invalid = saveError?.code === 'INVALID';
  const readOnly = useApp((s) => s.skeleton?.readOnly);
  const parted = useApp((s) => s.entries.some((e) => e.parts?.some((p) => p.path === s.openPath)));
  const savedAs = useApp((s) => s.savedAs);
  const staleNotice = useApp((s) => s.staleNotice);
  const goToNote = useApp((s) => s.goToNote);
  const confirmReload = useApp((s) => s.confirmReload);
  return (
    <>
      {staleNotice && (
        <div className="banner info" role="status" data-testid="stale-notice">
          <span>{staleNotice}</span>
          <button onClick={() => useApp.setState({ staleNotice: undefined })} aria-label="Dismiss">×</button>
        </div>
      )}
      {confirmReload && (
        <div className="banner warn" role="alertdialog" aria-label="Reload over another window's edits" data-testid="reload-others">
          <span>
            <strong>{openPath} has unsaved edits made in another window.</strong> Reload reads the file as it is on disk and drops them there too.
          </span>
          <button onClick={() => void revert(true)} data-testid="reload-others-confirm">Reload and drop them</button>
          <button onClick={() => useApp.setState({ confirmReload: false })} data-testid="reload-others-keep" autoFocus>Keep them</button>
        </div>
      )}
      {savedAs && (
        <div className="banner info" role="status" data-testid="saved-as-banner">
          <span>
            Saved a copy as <strong>{savedAs}</strong>; {openPath} is as it was{edit?.dirty ? ' (your edits are still here, unsaved)' : ''}.
          </span>
          <button onClick={() => { useApp.setState({ savedAs: undefined }); void useApp.getState().openConversation(savedAs, 0); }} data-testid="open-saved-copy">Open the copy</button>
          <button onClick={() => useApp.setState({ savedAs: undefined })} aria-label="Dismiss">×</button>
        </div>
      )}
      {/* A part of a big file says so here, with the way to the parts around it; any other read-only file in the header's notes. */}
      {readOnly && parted && (
        <div className="banner info" role="status" data-testid="read-only-banner">
          <span>
            <strong>Read-only:</strong> {readOnly.reason}.
          </span>
          <PartSteps />
        </div>
      )}
      {goToNote && (
        <div className={`banner ${goToNote.missed ? 'warn' : 'info'}`} role={goToNote.missed ? 'alert' : 'status'} data-testid="go-to-note">
          <span>{goToNote.text}</span>
          <button onClick={() => useApp.setState({ goToNote: undefined })} aria-label="Dismiss">×</button>
        </div>
      )}
      {conflict && (
        <div className="banner warn" role="alert" data-testid="conflict-banner">
          <strong>{openPath} changed on disk while you were editing.</strong> Your edits are kept until you choose:
          <button onClick={() => setDialog('merge')} data-testid="conflict-merge" title="My edits on top of what is on disk now; where both changed a message, choose">Merge…</button>
          <button onClick={() => void revert()} data-testid="conflict-reload">Reload (discard mine)</button>
          <button onClick={() => void save(true)} data-testid="conflict-keep" title="Where both changed a message, mine is written; what was added on disk stays (nothing of theirs goes unseen: Merge… or Compare shows it first)">Keep mine</button>
          <button onClick={() => setSaveAsName(openPath?.replace(/(\.[^.]+)$/, '.mine$1'))}>Save as…</button>
          <button onClick={() => setDialog('compare')} data-testid="conflict-compare">Compare</button>
        </div>
      )}
      {gone && (
        <div className="banner warn" role="alert" data-testid="gone-banner">
          <strong>{openPath} was deleted on disk while you were editing.</strong> Your edits are kept:
          <button onClick={() => void save(true)} data-testid="gone-recreate">Save (recreate the file)</button>
          <button onClick={() => setSaveAsName(openPath)}>Save as…</button>
          <button onClick={() => useApp.setState({ saveError: undefined })}>Not now</button>
        </div>
      )}
      {busy && (
        <div className="banner warn" role="alert" data-testid="busy-banner">
          <span>{saveError.message}</span>
          <button onClick={() => void save()} data-testid="busy-retry">Save again</button>
          <button onClick={() => setSaveAsName(openPath?.replace(/(\.[^.]+)$/, '.mine$1'))} data-testid="busy-save-as">Save as…</button>
          <button onClick={() => useApp.setState({ saveError: undefined })} aria-label="Dismiss">×</button>
        </div>
      )}
      {savedNote && !saveError && (
        <div className="banner info" role="status" data-testid="saved-note">
          <span>{savedNote}</span>
          <button onClick={() => useApp.setState({ savedNote: undefined })} aria-label="Dismiss">×</button>
        </div>
      )}
      {live && edit?.dirty && !conflict && !saveError && (
        <div className="banner info" role="status" data-testid="live-note">
          <span>
            {live.writers.length > 0 ? `${live.writers.map((w) => `${w.name} (pid ${w.pid})`).join(', ')} ${live.writers.length > 1 ? 'have' : 'has'} this file open for writing` : 'Another program is adding to this file'}: a save keeps what it adds
            {live.writers.length > 0 ? ', and waits for it to close the file unless your edits only add messages at the end' : ''}.
          </span>
        </div>
      )}
      {invalid && (
        <div className="banner warn" role="alertdialog" aria-label="The save would damage the file" data-testid="invalid-banner">
          <strong>Not saved: written like this, {openPath} would break what its own tool needs of it.</strong>
          <ul className="problems">
            {(saveError.problems ?? [saveError.message]).slice(0, 8).map((p, i) => (
              <li key={i}>{p}</li>
            ))}
            {(saveError.problems?.length ?? 0) > 8 && <li>and {saveError.problems!.length - 8} more</li>}
          </ul>
          <button onClick={() => useApp.setState({ saveError: undefined })} data-testid="invalid-cancel">Keep editing</button>
          <button onClick={() => void save(false, true)} data-testid="invalid-save-anyway">Save anyway</button>
        </div>
      )}
      {saveError && saveError.code !== 'CONFLICT' && saveError.code !== 'GONE' && !busy && !invalid && (
        <div className="banner error" role="alert" data-testid="save-error">
          {saveError.message}
          {saveError.code === 'FORBIDDEN' && edit?.dirty && <button onClick={() => setSaveAsName(copyName(openPath, readOnly?.saveAs))} data-testid="save-error-save-as">Save as…</button>}
          <button onClick={() => useApp.setState({ saveError: undefined })} aria-label="Dismiss">×</button>
        </div>
      )}
      {saveAsName !== undefined && (
        <form
          className="banner"
          onSubmit={(e) => {
            e.preventDefault();
            void saveAs(saveAsName).then(() => setSaveAsName(undefined));
          }}
        >
          <label>
            Save as <input value={saveAsName} onChange={(e) => setSaveAsName(e.target.value)} aria-label="New file name" autoFocus />
          </label>
          <button type="submit">Save</button>
          <button type="button" onClick={() => setSaveAsName(undefined)}>Cancel</button>
        </form>
      )}
      {pendingDelete && (
        <div className="banner warn" role="alertdialog" aria-label="Tool exchange" data-testid="integrity-banner">
          Message{pendingDelete.indexes.length > 1 ? 's' : ''} {pendingDelete.indexes.join(', ')} belong{pendingDelete.indexes.length > 1 ? '' : 's'} to a tool exchange with message
          {pendingDelete.partners.length > 1 ? 's' : ''} {pendingDelete.partners.join(', ')}; {pendingDelete.moveTo === undefined ? 'deleting' : 'moving'} alone would
          separate a tool call from its result.
          <button data-testid="with-partners" onClick={() => { const p = pendingDelete; setPendingDelete(undefined); void applyEdit(withPartners(p, true), p.version); }}>
            {pendingDelete.moveTo === undefined ? 'Delete' : 'Move'} with {pendingDelete.partners.length > 1 ? 'them' : 'it'}
          </button>
          <button onClick={() => { const p = pendingDelete; setPendingDelete(undefined); void applyEdit(withPartners(p, false), p.version); }}>
            {pendingDelete.moveTo === undefined ? 'Delete' : 'Move'} only the selected
          </button>
          <button onClick={() => setPendingDelete(undefined)}>Cancel</button>
        </div>
      )}
    </>
  );
}

/** A part of a file read a part at a time: the parts before and after it, and the last (where an agent writes). */
function PartSteps() {
  const openPath = useApp((s) => s.openPath);
  const parts = useApp((s) => s.entries.find((e) => e.parts?.some((p) => p.path === s.openPath))?.parts);
  if (!parts || !openPath) return null;
  const at = parts.findIndex((p) => p.path === openPath);
  const go = (k: number) => void useApp.getState().openConversation(parts[k].path, 0);
  return (
    <span className="part-steps">
      {at > 0 && <button onClick={() => go(at - 1)} data-testid="part-previous">← part {at}</button>}
      {at < parts.length - 1 && <button onClick={() => go(at + 1)} data-testid="part-next">part {at + 2} →</button>}
      {at < parts.length - 2 && <button onClick={() => go(parts.length - 1)} data-testid="part-last">last part ({parts.length})</button>}
    </span>
  );
}
