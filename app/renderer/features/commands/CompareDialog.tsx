import { diffArrays } from 'diff';
import { useEffect, useState } from 'react';
import { request } from '../../api/client.js';
import { useApp, useAppPick } from '../../store/index.js';
import { closeOnEscape } from '../close-on-escape.js';

interface Row {
  theirs?: string;
  mine?: string;
  kind: 'same' | 'changed' | 'removed' | 'added';
}

/** The file on disk beside the open document, message by message. */
export function CompareDialog() {
  const { openPath, setDialog } = useAppPick('openPath', 'setDialog');
  const [rows, setRows] = useState<Row[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (!openPath) return;
    request('edit:compare', { path: openPath, conversation: useApp.getState().openConversationIndex }).then(
      ({ mine, theirs, theirsError }) => {
        if (theirsError) setError(`The file on disk cannot be read: ${theirsError}`);
        const out: Row[] = [];
        const parts = diffArrays(theirs, mine);
        for (let k = 0; k < parts.length; k++) {
          const part = parts[k];
          const next = parts[k + 1];
          if (part.removed && next?.added) {
            // A removed run followed by an added one is the same messages, changed: shown side by side.
            const n = Math.max(part.value.length, next.value.length);
            for (let i = 0; i < n; i++) out.push({ theirs: part.value[i], mine: next.value[i], kind: i < part.value.length && i < next.value.length ? 'changed' : i < part.value.length ? 'removed' : 'added' });
            k++;
            continue;
          }
          for (const line of part.value) out.push(part.added ? { mine: line, kind: 'added' } : part.removed ? { theirs: line, kind: 'removed' } : { theirs: line, mine: line, kind: 'same' });
        }
        setRows(out);
      },
      (e) => setError((e as Error).message),
    );
  }, [openPath]);
  const changed = rows?.filter((r) => r.kind !== 'same').length ?? 0;
  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-label="Compare" onKeyDown={closeOnEscape(() => setDialog(undefined))}>
      <div className="dialog-body wide" data-testid="compare-dialog">
        <div className="panel-head">
          <h2>On disk ↔ mine · {changed} message{changed === 1 ? '' : 's'} differ</h2>
          <button autoFocus onClick={() => setDialog(undefined)} aria-label="Close">×</button>
        </div>
        {error && <p className="error-text">{error}</p>}
        <div className="compare">
          <div className="compare-head">on disk</div>
          <div className="compare-head">mine</div>
          {rows?.map((r, i) => (
            <div key={i} className={`compare-row ${r.kind}`} data-kind={r.kind}>
              <pre>{r.theirs ?? ''}</pre>
              <pre>{r.mine ?? ''}</pre>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
