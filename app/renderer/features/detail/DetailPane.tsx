import { useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { RoleChip } from '../RoleChip.js';
import { MessageEditor } from './MessageEditor.js';
import { useWindowPlan } from '../window/useWindowPlan.js';

type Detail = RequestOutput<'conversation:message'>;

export function DetailPane() {
  const { openPath, selected, counts, skeleton, generation } = useApp();
  const [detail, setDetail] = useState<Detail | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [view, setView] = useState<'content' | 'raw'>('content');
  const [editing, setEditing] = useState(false);
  const { plan } = useWindowPlan();

  useEffect(() => {
    const onEdit = () => setEditing(true);
    document.addEventListener('inspector:edit', onEdit);
    return () => document.removeEventListener('inspector:edit', onEdit);
  }, []);
  useEffect(() => setEditing(false), [openPath, selected]);

  useEffect(() => {
    setDetail(undefined);
    setError(undefined);
    if (!openPath || selected === undefined) return;
    let live = true;
    request('conversation:message', { path: openPath, index: selected })
      .then((d) => live && setDetail(d))
      .catch((e) => live && setError((e as Error).message));
    return () => {
      live = false;
    };
  }, [openPath, selected, generation]);

  if (selected === undefined) return <section className="detail empty" id="detail" tabIndex={-1} aria-label="Message detail"><p>Select a message (↑/↓, Enter) to read it in full.</p></section>;
  if (error) return <section className="detail" id="detail" tabIndex={-1} aria-label="Message detail"><p className="error-text">{error}</p></section>;
  if (!detail) return <section className="detail" id="detail" tabIndex={-1} aria-label="Message detail"><p className="loading">Loading message {selected}…</p></section>;

  const m = detail.message as Record<string, unknown>;
  const recount = counts?.tokens[selected];
  const toolTokens = counts?.toolTokens?.[selected] ?? 0;
  const contentRecount = recount === undefined ? undefined : recount - toolTokens;
  const stored = skeleton?.storedTokens[selected] ?? -1;
  const structured = typeof m.content !== 'string';
  const cut = plan?.cuts[selected];
  const { role, content: _c, timestamp, message_id, category, metadata, token_count: _t, ...extra } = m;
  return (
    <section className="detail" id="detail" tabIndex={-1} aria-label="Message detail" data-testid="detail">
      <header className="detail-head">
        <strong>message {selected}</strong>
        <RoleChip role={String(role)} />
        {typeof category === 'string' && <span className="badge">{category}</span>}
        <span data-testid="detail-tokens">{recount ?? '…'} tokens{counts ? ` (${counts.encoding}${counts.approximate ? ', approximate' : ''})` : ''}</span>
        {toolTokens > 0 && <span className="muted" data-testid="detail-tool-tokens">{contentRecount} for the content + {toolTokens} for tool calls (names and arguments)</span>}
        {stored >= 0 && stored !== contentRecount && <span className="stored" title="The file's own token_count, which counts the content alone">stored token_count: {stored}</span>}
        {typeof timestamp === 'string' && <span className="muted">{timestamp}</span>}
        {typeof message_id === 'string' && <span className="mono muted">{message_id}</span>}
        <span className="spacer" />
        {!editing && <button onClick={() => setEditing(true)} data-testid="edit-button" title="Edit (E)">Edit</button>}
        <div role="tablist" aria-label="Detail view">
          <button role="tab" aria-selected={view === 'content'} onClick={() => setView('content')}>Content</button>
          <button role="tab" aria-selected={view === 'raw'} onClick={() => setView('raw')}>Raw</button>
        </div>
      </header>
      {editing ? (
        <MessageEditor key={`${selected}-${generation}`} index={selected} message={m} onDone={() => setEditing(false)} />
      ) : view === 'content' ? (
        <>
          {cut && !structured ? (
            <>
              <p className="cut-note" data-testid="cut-note">
                ✂ Under this strategy the message is cut: it keeps the {cut.keep === 'start' ? `first ${cut.offset}` : `text from character ${cut.offset}`} of {detail.text.length} characters
                {cut.approximate ? ' (position estimated here; “What the model sees” is exact)' : ''}. The dimmed part is what the model does not see.
              </p>
              <pre className="content" data-testid="detail-content">
                {cut.keep === 'start' ? (
                  <>
                    {detail.text.slice(0, cut.offset)}
                    <span className="cut-away">{detail.text.slice(cut.offset)}</span>
                  </>
                ) : (
                  <>
                    <span className="cut-away">{detail.text.slice(0, cut.offset)}</span>
                    {detail.text.slice(cut.offset)}
                  </>
                )}
              </pre>
            </>
          ) : (
            <pre className={`content ${structured ? 'json' : ''}`} data-testid="detail-content">
              {structured ? JSON.stringify(m.content, null, 2) : detail.text || <span className="muted">(empty)</span>}
            </pre>
          )}
          {(metadata !== undefined || Object.keys(extra).length > 0) && (
            <div className="meta">
              <h3>metadata and other keys</h3>
              <pre className="json">{JSON.stringify({ ...(metadata !== undefined ? { metadata } : {}), ...extra }, null, 2)}</pre>
            </div>
          )}
        </>
      ) : (
        <pre className="json raw" data-testid="detail-raw">{detail.raw}</pre>
      )}
    </section>
  );
}
