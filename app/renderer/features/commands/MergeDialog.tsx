import { useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useApp, useAppPick } from '../../store/index.js';
import { closeOnEscape } from '../close-on-escape.js';

type Preview = RequestOutput<'edit:merge-preview'>;

/**
 * The file changed on disk while it was edited: my edits re-applied on top of it. Where both sides changed a
 * message, its changed words are marked and the user keeps one side; nothing is written until Save.
 */
export function MergeDialog() {
  const { openPath, setDialog, afterEdit, refusedAsStale } = useAppPick('openPath', 'setDialog', 'afterEdit', 'refusedAsStale');
  const [preview, setPreview] = useState<Preview | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [choices, setChoices] = useState<Array<'mine' | 'theirs'>>([]);
  useEffect(() => {
    if (!openPath) return;
    request('edit:merge-preview', { path: openPath }).then(
      (p) => {
        setPreview(p);
        setChoices(p.conflicts.map(() => 'mine'));
        if (p.theirsError) setError(`The file on disk cannot be read: ${p.theirsError}`);
      },
      (e) => setError((e as Error).message),
    );
  }, [openPath]);
  const apply = async () => {
    if (!openPath) return;
    try {
      await afterEdit(await request('edit:merge', { path: openPath, version: useApp.getState().skeleton?.editVersion ?? -1, choices }));
      useApp.setState({ saveError: undefined });
      setDialog(undefined);
    } catch (e) {
      if (await refusedAsStale(e)) setDialog(undefined);
      else setError((e as Error).message);
    }
  };
  const n = preview?.conflicts.length ?? 0;
  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-label="Merge with the file on disk" onKeyDown={closeOnEscape(() => setDialog(undefined))}>
      <div className="dialog-body wide" data-testid="merge-dialog">
        <div className="panel-head">
          <h2>Merge my edits onto the file on disk</h2>
          <button autoFocus onClick={() => setDialog(undefined)} aria-label="Close">×</button>
        </div>
        {error && <p className="error-text">{error}</p>}
        {preview && !preview.theirsError && (
          <>
            <p className="muted" data-testid="merge-on-disk">
              On disk since it was read:{' '}
              {[
                [preview.onDisk.added, 'added'],
                [preview.onDisk.changed, 'changed'],
                [preview.onDisk.removed, 'removed'],
              ]
                .filter(([n]) => Number(n) > 0)
                .map(([n, what]) => `${n} message${n === 1 ? '' : 's'} ${what}`)
                .join(', ') || 'nothing'}
              .
            </p>
            <p data-testid="merge-summary">
              {preview.applied} edit{preview.applied === 1 ? '' : 's'} of mine appl{preview.applied === 1 ? 'ies' : 'y'} cleanly to what is on disk now
              {n === 0 ? '; nothing collides.' : `; ${n} message${n === 1 ? ' was' : 's were'} changed on both sides: keep one side of each.`}
            </p>
            <ol className="merge-conflicts">
              {preview.conflicts.map((c, k) => (
                <li key={k} data-testid="merge-conflict">
                  <div className="muted">message {c.index}{c.theirs === undefined ? ' · deleted on disk' : c.mine === undefined ? ' · deleted by me' : ''}</div>
                  <p className="word-diff">
                    {c.words.map((w, i) => (
                      <span key={i} className={w.side === 'mine' ? 'ins' : w.side === 'theirs' ? 'del' : undefined} title={w.side === 'mine' ? 'only in mine' : w.side === 'theirs' ? 'only on disk' : undefined}>
                        {w.text}
                      </span>
                    ))}
                  </p>
                  <label>
                    <input type="radio" name={`merge-${k}`} checked={choices[k] === 'mine'} onChange={() => setChoices((cs) => cs.map((x, i) => (i === k ? 'mine' : x)))} /> keep mine
                  </label>{' '}
                  <label>
                    <input type="radio" name={`merge-${k}`} checked={choices[k] === 'theirs'} onChange={() => setChoices((cs) => cs.map((x, i) => (i === k ? 'theirs' : x)))} /> keep the one on disk
                  </label>
                </li>
              ))}
            </ol>
            <div className="dialog-actions">
              <button onClick={() => void apply()} data-testid="merge-apply">
                Merge (undoable; Save writes it)
              </button>
              <button onClick={() => setDialog(undefined)}>Cancel</button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
