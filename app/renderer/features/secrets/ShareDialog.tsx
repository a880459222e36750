import { useState } from 'react';
import type { RequestOutput } from '../../../shared/contract.js';
import { useApp, useAppPick } from '../../store/index.js';
import { download, type ShareScope } from '../../store/secrets.js';
import { closeOnEscape } from '../close-on-escape.js';
import { useModalFocus } from '../modal-focus.js';
import { formatNumber } from '../roles.js';

type Shared = RequestOutput<'share:export'>;

/**
 * A transcript to share: of the conversation shown, the messages picked, the whole file or every file of the
 * folder; a self-contained HTML page or Markdown; redacted unless unticked, the report downloaded beside it.
 */
export function ShareDialog() {
  const { share, setShare, exportShared, skeleton, findings, root } = useAppPick('share', 'setShare', 'exportShared', 'skeleton', 'findings', 'root');
  const picked = useApp((s) => (s.marked.size > 0 ? s.marked.size : s.selected !== undefined ? 1 : 0));
  const [scope, setScope] = useState<ShareScope>(share ?? 'conversation');
  const [to, setTo] = useState<'html' | 'markdown'>('html');
  const [redact, setRedact] = useState(true);
  const [paths, setPaths] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<Shared | undefined>();
  const dialog = useModalFocus<HTMLDivElement>();
  const close = () => setShare(undefined);
  const open = skeleton !== undefined;
  const found = findings && skeleton && findings.path === skeleton.path && findings.conversation === skeleton.conversation ? findings : undefined;

  const run = async () => {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const out = await exportShared(scope, to, redact, paths);
      download(out.filename, out.text, out.mime);
      // The report goes beside the transcript: what was taken out, where, masked.
      if (out.report) download(out.report.filename, out.report.text, 'text/plain');
      setDone(out);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const scopes: Array<{ id: ShareScope; label: string; disabled?: boolean }> = [
    { id: 'conversation', label: open ? `What is shown: ${skeleton.threads ? 'this thread' : 'this conversation'} (${formatNumber(skeleton.count)} messages)` : 'What is shown', disabled: !open },
    { id: 'selection', label: `The messages picked (${formatNumber(picked)}; Ctrl-click rows to pick more)`, disabled: !open || picked === 0 },
    { id: 'file', label: open && (skeleton.conversations > 1 || skeleton.threads) ? `The whole file (every ${skeleton.threads ? 'thread' : 'conversation'})` : 'The whole file', disabled: !open },
    { id: 'folder', label: `Every conversation file in ${root ?? 'the folder'}` },
  ];
  return (
    <div ref={dialog} className="dialog" role="dialog" aria-modal="true" aria-label="Share a transcript" onKeyDown={closeOnEscape(close)}>
      <div className="dialog-body share-dialog" data-testid="share-dialog">
        <h2>Share a transcript</h2>
        <fieldset>
          <legend>Of</legend>
          {scopes.map((s) => (
            <label key={s.id} className={s.disabled ? 'muted' : ''}>
              <input type="radio" name="share-scope" value={s.id} checked={scope === s.id} disabled={s.disabled} onChange={() => setScope(s.id)} data-testid={`share-scope-${s.id}`} /> {s.label}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>As</legend>
          <label>
            <input type="radio" name="share-to" checked={to === 'html'} onChange={() => setTo('html')} data-testid="share-to-html" /> One HTML page: opens in any browser with nothing fetched and no script; tool calls as cards, reasoning folded
          </label>
          <label>
            <input type="radio" name="share-to" checked={to === 'markdown'} onChange={() => setTo('markdown')} data-testid="share-to-markdown" /> Markdown
          </label>
        </fieldset>
        <label>
          <input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} data-testid="share-redact" autoFocus /> Redact secrets and personal data: each replaced by [REDACTED:<i>rule</i>], a report of what was taken out downloaded beside
          {found && scope === 'conversation' ? ` (${formatNumber(found.open)} found in what is shown${found.dismissed > 0 ? `; ${formatNumber(found.dismissed)} you dismissed are kept` : ''})` : ''}
        </label>
        {redact && (
          <label>
            <input type="checkbox" checked={paths} onChange={(e) => setPaths(e.target.checked)} data-testid="share-paths" /> Hide user names in paths: /home/<i>name</i>, /Users/<i>name</i>, C:\Users\<i>name</i> and USER/USERNAME values become &lt;user&gt;
            {found && scope === 'conversation' && found.paths > 0 ? ` (${formatNumber(found.paths)} found in what is shown)` : ''}
          </label>
        )}
        {!redact && <p className="banner warn" role="alert" data-testid="share-unredacted">Nothing will be taken out: keys, tokens and passwords the agent read go into the transcript as they are.</p>}
        {error && <p className="error-text" role="alert" data-testid="share-error">{error}</p>}
        {done && (
          <div role="status" data-testid="share-done">
            <p>
              Saved <strong>{done.filename}</strong>: {formatNumber(done.messages)} messages{done.report ? `, ${formatNumber(done.redacted)} finding${done.redacted === 1 ? '' : 's'} redacted; the report beside it: ${done.report.filename}` : ', not redacted'}.
            </p>
            {done.report && done.redacted > 0 && <pre className="json small" data-testid="share-report">{done.report.text.split('\n').slice(0, 12).join('\n')}{done.report.text.split('\n').length > 13 ? '\n…' : ''}</pre>}
          </div>
        )}
        <div className="dialog-actions">
          <button onClick={() => void run()} disabled={busy} className="primary" data-testid="share-export">
            {busy ? 'Making the transcript…' : 'Export'}
          </button>
          <button onClick={close}>{done ? 'Close' : 'Cancel'}</button>
        </div>
      </div>
    </div>
  );
}
