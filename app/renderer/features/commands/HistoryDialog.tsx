import { useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useApp, useAppPick } from '../../store/index.js';
import { closeOnEscape } from '../close-on-escape.js';
import { withMod } from '../platform.js';

type Versions = RequestOutput<'history:list'>['versions'];
type Diff = RequestOutput<'history:diff'>;

/** A kept version beside the file as it is now: added and removed lines, unchanged runs folded. */
function VersionDiff({ diff }: { diff: Diff }) {
  if (diff.tooLarge) return <p className="muted" data-testid="history-diff">This file is too large to compare line by line here (over 4 MB).</p>;
  if (diff.added === 0 && diff.removed === 0) return <p className="muted" data-testid="history-diff">This version is the same as the file now.</p>;
  return (
    <div data-testid="history-diff">
      <p className="small muted">
        From this version to the file now: <span className="diff-added">+{diff.added}</span> <span className="diff-removed">−{diff.removed}</span> lines
      </p>
      <pre className="diff">
        {diff.lines.map((l, i) =>
          l.kind === 'folded' ? (
            <div key={i} className="diff-line folded">⋯ {l.count} unchanged lines</div>
          ) : (
            <div key={i} className={`diff-line ${l.kind}`} data-kind={l.kind}>
              {l.kind === 'added' ? '+ ' : l.kind === 'removed' ? '− ' : '  '}
              {l.changed ? <ChangedWords text={l.text} ranges={l.changed} /> : l.text}
            </div>
          ),
        )}
      </pre>
    </div>
  );
}

/** Earlier versions of the open file (kept before each save); restoring one is an undoable edit. */
export function HistoryDialog() {
  const { openPath, setDialog, afterEdit, refusedAsStale } = useAppPick('openPath', 'setDialog', 'afterEdit', 'refusedAsStale');
  const [versions, setVersions] = useState<Versions | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [diff, setDiff] = useState<{ id: string; diff: Diff } | undefined>();
  const showDiff = async (id: string) => {
    if (!openPath) return;
    try {
      setDiff({ id, diff: await request('history:diff', { path: openPath, id }) });
    } catch (e) {
      setError((e as Error).message);
    }
  };
  useEffect(() => {
    if (openPath) request('history:list', { path: openPath }).then((r) => setVersions(r.versions), (e) => setError((e as Error).message));
  }, [openPath]);
  const restore = async (id: string) => {
    if (!openPath) return;
    try {
      const state = await request('history:restore', { path: openPath, id, version: useApp.getState().skeleton?.editVersion ?? -1 });
      setDialog(undefined);
      await afterEdit(state);
    } catch (e) {
      if (await refusedAsStale(e)) setDialog(undefined);
      else setError((e as Error).message);
    }
  };
  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-label="Local history" onKeyDown={closeOnEscape(() => setDialog(undefined))}>
      <div className="dialog-body" data-testid="history-dialog">
        <div className="panel-head">
          <h2>Local history · {openPath}</h2>
          <button autoFocus onClick={() => setDialog(undefined)} aria-label="Close">×</button>
        </div>
        {error && <p className="error-text">{error}</p>}
        {versions?.length === 0 && <p className="muted">No earlier versions yet: one is kept each time you save (the last 20 of each file, within 512 MB a file and 2 GB in all; the newest always).</p>}
        <table className="totals">
          <tbody>
            {versions?.map((v) => (
              <tr key={v.id} data-testid="history-version">
                <td>{new Date(v.savedAt).toLocaleString()}</td>
                <td className="num">{v.error ? <span className="error-text">{v.error}</span> : `${v.messages} messages`}</td>
                <td className="num">{(v.bytes / 1024).toFixed(1)} KB</td>
                <td className="num">
                  <button onClick={() => void showDiff(v.id)} aria-pressed={diff?.id === v.id} data-testid="history-diff-button">
                    Diff
                  </button>{' '}
                  <button onClick={() => void restore(v.id)} disabled={!!v.error}>Restore</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {diff && <VersionDiff diff={diff.diff} />}
        <p className="muted small">Restoring replaces the messages in the editor as one edit: undo it with {withMod('Z')}; nothing is written until you save.</p>
      </div>
    </div>
  );
}

/** A line changed in place, the words that changed marked (the rest of it is as it was). */
function ChangedWords({ text, ranges }: { text: string; ranges: ReadonlyArray<readonly [number, number]> }) {
  const out: React.ReactNode[] = [];
  let at = 0;
  ranges.forEach(([a, b], i) => {
    if (a > at) out.push(text.slice(at, a));
    out.push(
      <mark key={i} className="diff-word">
        {text.slice(a, b)}
      </mark>,
    );
    at = b;
  });
  if (at < text.length) out.push(text.slice(at));
  return <>{out}</>;
}
