import { useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useApp, useAppPick } from '../../store/index.js';
import { formatNumber } from '../roles.js';
import { closeOnEscape } from '../close-on-escape.js';
import { useModalFocus } from '../modal-focus.js';

type Result = RequestOutput<'window:compact'>;

/** Compact on purpose: preview a summary of what is dropped (or of everything), then apply it as one undoable edit. */
export function CompactSection({ strategy, params }: { strategy: string; params: Record<string, unknown> }) {
  const { openPath, model, afterEdit } = useAppPick('openPath', 'model', 'afterEdit');
  const [mode, setMode] = useState<'dropped' | 'all'>('dropped');
  const [source, setSource] = useState<'text' | 'offline' | 'openai'>('text');
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<Result | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [archiveMemory, setArchiveMemory] = useState(true);
  const [endpoint, setEndpoint] = useState<{ summaryBaseUrl: string; summaryModel: string } | undefined>();
  const [keyStatus, setKeyStatus] = useState<{ set: boolean; storage: string } | undefined>();
  const [keyInput, setKeyInput] = useState('');

  useEffect(() => {
    if (source !== 'openai') return;
    void request('settings:get', {}).then((s) => setEndpoint({ summaryBaseUrl: s.summaryBaseUrl, summaryModel: s.summaryModel }));
    void request('settings:api-key-status', {}).then(setKeyStatus);
  }, [source]);
  const saveEndpoint = (patch: Partial<{ summaryBaseUrl: string; summaryModel: string }>) => {
    setEndpoint((e) => (e ? { ...e, ...patch } : e));
    void request('settings:set', patch);
  };

  const run = async (apply: boolean) => {
    if (!openPath) return;
    setBusy(true);
    setError(undefined);
    try {
      const clean = Object.fromEntries(Object.entries(params).filter(([, v]) => ['number', 'string', 'boolean'].includes(typeof v) || v === null)) as Record<string, number | string | boolean | null>;
      const summarizer = source === 'text' ? { kind: 'text' as const, text } : source === 'offline' ? { kind: 'offline' as const } : { kind: 'openai' as const };
      const version = useApp.getState().skeleton?.editVersion ?? -1;
      const r = await request('window:compact', { path: openPath, conversation: useApp.getState().openConversationIndex, model, mode, strategy, params: clean, summarizer, apply, archiveMemory, ...(apply ? { version } : {}) });
      setPreview(r);
      if (apply) {
        setPreview(undefined);
        if (r.state) await afterEdit(r.state);
      }
    } catch (e) {
      if (await useApp.getState().refusedAsStale(e)) setPreview(undefined);
      else setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const ready = source !== 'text' || text.trim().length > 0;

  // A summary that is no shorter than what it replaces gains nothing: said, and not offered.
  const grows = preview !== undefined && preview.tokensAfter >= preview.tokensBefore;
  return (
    <section className="compact" aria-label="Compact" data-testid="compact">
      <h3>Compact</h3>
      <label className="radio"><input type="radio" name="compact-mode" checked={mode === 'dropped'} onChange={() => setMode('dropped')} /> Summarise what this strategy drops</label>
      <label className="radio"><input type="radio" name="compact-mode" checked={mode === 'all'} onChange={() => setMode('all')} data-testid="compact-all" /> Compact all (static context, then one summary)</label>
      <label className="param">
        summary from
        <select value={source} onChange={(e) => setSource(e.target.value as typeof source)} data-testid="compact-source">
          <option value="text">my text</option>
          <option value="offline">offline summary (extractive)</option>
          <option value="openai">OpenAI-compatible endpoint (settings; key from OPENAI_API_KEY)</option>
        </select>
      </label>
      {source === 'openai' && endpoint && (
        <div className="endpoint">
          <label className="param">base URL <input type="url" value={endpoint.summaryBaseUrl} onChange={(e) => saveEndpoint({ summaryBaseUrl: e.target.value })} aria-label="Summary endpoint base URL" /></label>
          <label className="param">model <input type="text" value={endpoint.summaryModel} onChange={(e) => saveEndpoint({ summaryModel: e.target.value })} aria-label="Summary model" /></label>
          <label className="param">
            API key {keyStatus?.set ? `(set; ${keyStatus.storage === 'encrypted' ? 'stored encrypted' : 'kept in memory until the app stops'})` : '(not set; OPENAI_API_KEY is used if present)'}
            <span className="param-row">
              <input type="password" value={keyInput} onChange={(e) => setKeyInput(e.target.value)} aria-label="API key" autoComplete="off" />
              <button onClick={() => void request('settings:set-api-key', { apiKey: keyInput }).then((st) => { setKeyStatus(st); setKeyInput(''); })}>{keyInput ? 'Set' : 'Clear'}</button>
            </span>
          </label>
        </div>
      )}
      {source === 'text' && <textarea value={text} onChange={(e) => setText(e.target.value)} rows={4} aria-label="Summary text" placeholder="What the agent should remember…" data-testid="compact-text" />}
      <div className="editor-row">
        <button className="action" disabled={!ready || busy} onClick={() => void run(false)} data-testid="compact-preview" title="Shows the summary and what it saves, before anything changes">
          Preview…
        </button>
      </div>
      {busy && !preview && <p className="loading">Summarising…</p>}
      {error && !preview && <p className="error-text" role="alert">{error}</p>}
      {preview && <CompactPreview preview={preview} grows={grows} busy={busy} error={error} archive={preview.memory && mode === 'all' ? { path: preview.memory.path, on: archiveMemory, set: setArchiveMemory } : undefined} apply={() => void run(true)} close={() => setPreview(undefined)} />}
    </section>
  );
}

/**
 * The preview in a dialog of its own, over the page at its full height: the summary is read whole, beside what
 * it saves, and applied (or not) from there, rather than in the bottom of a narrow panel.
 */
function CompactPreview({ preview, grows, busy, error, archive, apply, close }: { preview: Result; grows: boolean; busy: boolean; error: string | undefined; archive?: { path: string; on: boolean; set(on: boolean): void }; apply(): void; close(): void }) {
  const dialog = useModalFocus<HTMLDivElement>();
  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-label="Compaction preview" onKeyDown={closeOnEscape(close)} ref={dialog}>
      <div className="dialog-body wide compact-preview" data-testid="compact-result">
        <div className="panel-head">
          <h2>Compaction preview</h2>
          <button onClick={close} aria-label="Close">×</button>
        </div>
        <p className="compact-figures">
          {formatNumber(preview.replaced)} messages → one summary of {formatNumber(preview.summaryTokens)} tokens: {formatNumber(preview.tokensBefore)} → <strong>{formatNumber(preview.tokensAfter)}</strong> tokens, {formatNumber(preview.messagesAfter)} messages.
        </p>
        {grows && (
          <p className="banner warn" role="alert" data-testid="compact-grows">
            The summary is not shorter than the messages it replaces ({formatNumber(preview.tokensBefore)} → {formatNumber(preview.tokensAfter)} tokens): applying it would grow the history. Keep fewer messages out of it, or write the summary yourself.
          </p>
        )}
        <pre className="content">{preview.summary}</pre>
        {archive && (
          <label className="radio">
            <input type="checkbox" checked={archive.on} onChange={(e) => archive.set(e.target.checked)} /> archive {archive.path} and start it afresh (as the spec's compact does)
          </label>
        )}
        {error && <p className="error-text" role="alert">{error}</p>}
        <div className="editor-row">
          <button className="action" autoFocus={!grows} disabled={busy || grows} onClick={apply} data-testid="compact-apply" title={grows ? 'The summary is not shorter than what it replaces' : 'One edit: undo takes it back'}>
            Apply (undoable)
          </button>
          <button className="action" autoFocus={grows} onClick={close}>
            Cancel
          </button>
          {busy && <span className="loading">Applying…</span>}
        </div>
      </div>
    </div>
  );
}
