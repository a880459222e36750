import { useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { closeOnEscape } from '../close-on-escape.js';
import { withMod } from '../platform.js';

type Versions = RequestOutput<'history:list'>['versions'];

/** Earlier versions of the open file (kept before each save); restoring one is an undoable edit. */
export function HistoryDialog() {
  const { openPath, setDialog, afterEdit } = useApp();
  const [versions, setVersions] = useState<Versions | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (openPath) request('history:list', { path: openPath }).then((r) => setVersions(r.versions), (e) => setError((e as Error).message));
  }, [openPath]);
  const restore = async (id: string) => {
    if (!openPath) return;
    const state = await request('history:restore', { path: openPath, id });
    setDialog(undefined);
    await afterEdit(state);
  };
  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-label="Local history" onKeyDown={closeOnEscape(() => setDialog(undefined))}>
      <div className="dialog-body" data-testid="history-dialog">
        <div className="panel-head">
          <h2>Local history · {openPath}</h2>
          <button autoFocus onClick={() => setDialog(undefined)} aria-label="Close">×</button>
        </div>
        {error && <p className="error-text">{error}</p>}
        {versions?.length === 0 && <p className="muted">No earlier versions yet: one is kept each time you save (the last 20).</p>}
        <table className="totals">
          <tbody>
            {versions?.map((v) => (
              <tr key={v.id} data-testid="history-version">
                <td>{new Date(v.savedAt).toLocaleString()}</td>
                <td className="num">{v.error ? <span className="error-text">{v.error}</span> : `${v.messages} messages`}</td>
                <td className="num">{(v.bytes / 1024).toFixed(1)} KB</td>
                <td className="num"><button onClick={() => void restore(v.id)} disabled={!!v.error}>Restore</button></td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted small">Restoring replaces the messages in the editor as one edit: undo it with {withMod('Z')}; nothing is written until you save.</p>
      </div>
    </div>
  );
}
