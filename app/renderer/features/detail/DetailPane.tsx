import { moveAmongButtons } from '../arrow-keys.js';
import { FATES } from '../../../../src/core/window/types.js';
import { type KeyboardEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract.js';
import { sparseGet } from '../../../shared/sparse.js';
import { request } from '../../api/client.js';
import { useApp, useAppPick } from '../../store/index.js';
import { PAGE_SIZE } from '../../store/conversation.js';
import { RoleChip } from '../RoleChip.js';
import { formatBytes, formatNumber } from '../roles.js';
import { MessageEditor } from './MessageEditor.js';
import { RecordEditor } from './RecordEditor.js';
import { Parts, ToolCallCards } from './Parts.js';
import { CompactionCard } from './CompactionCard.js';
import { useWindowPlan } from '../window/useWindowPlan.js';
import { useExactCut } from './useExactCut.js';
import { CutContent } from './CutContent.js';
import { Highlight, SecretMarks, type SecretMark } from '../highlight.js';
import { MessageFindings } from '../secrets/MessageFindings.js';
import { SearchHits } from './SearchHits.js';
import { describeUsage } from '../../../../src/core/usage.js';

type Detail = RequestOutput<'conversation:message'>;
const NO_MARKS: readonly SecretMark[] = [];

/**
 * Esc in the detail (not in an editor's field, which has its own) gives the keyboard back to the table it was
 * entered from with Enter: the topmost layer, closed.
 */
function backToTable(e: KeyboardEvent<HTMLElement>): void {
  if (e.key !== 'Escape' || e.defaultPrevented) return;
  const t = e.target as HTMLElement;
  if (t.closest('input, textarea, select, [contenteditable="true"], form')) return;
  const grid = document.querySelector<HTMLElement>('[data-testid="message-grid"]');
  if (!grid) return;
  e.preventDefault();
  grid.focus();
}

export function DetailPane() {
  const { openPath, selected, counts, skeleton, generation, findings, editingSession } = useAppPick('openPath', 'selected', 'counts', 'skeleton', 'generation', 'findings', 'editingSession');
  const marks = useMemo((): readonly SecretMark[] => {
    const here = selected !== undefined && findings && skeleton && findings.path === skeleton.path && findings.conversation === skeleton.conversation ? findings.byRow.get(selected) : undefined;
    return here ? here.filter((f) => !f.dismissed).map((f) => ({ value: f.value, label: `${f.label} (${f.field})`, kind: f.kind })) : NO_MARKS;
  }, [selected, findings, skeleton]);
  const search = useApp((s) => s.search);
  const [detail, setDetail] = useState<Detail | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [view, setView] = useState<'content' | 'raw'>('content');
  // Content and Raw lay the same message out at different lengths: a switch keeps the reader as far through it
  // as they were (a share of the way down), not at the same pixel, which lands elsewhere or at the end.
  const pane = useRef<HTMLElement>(null);
  const place = useRef<number | undefined>(undefined);
  const switchView = (next: 'content' | 'raw') => {
    const el = pane.current;
    if (el && next !== view) {
      const room = el.scrollHeight - el.clientHeight;
      place.current = room > 0 ? el.scrollTop / room : 0;
    }
    setView(next);
  };
  useLayoutEffect(() => {
    const el = pane.current;
    if (!el || place.current === undefined) return;
    el.scrollTop = place.current * Math.max(0, el.scrollHeight - el.clientHeight);
    place.current = undefined;
  }, [view]);
  const editing = useApp((st) => st.editing !== undefined && st.editing === st.selected);
  const drafting = useApp((st) => st.draftDirty);
  const reading = useApp((st) => st.provisional !== undefined && st.opening);
  // While the file is read, what the table already has of the message (its row) is shown meanwhile.
  // The row also has the message's counts before the whole conversation is counted (rows on screen come counted).
  const selectedRow = useApp((st) => (st.selected === undefined ? undefined : st.pages.get(Math.floor(st.selected / PAGE_SIZE))?.[st.selected % PAGE_SIZE]));
  const rowPreview = selectedRow?.preview;
  const setEditing = (on: boolean) => useApp.getState().setEditing(on ? useApp.getState().selected : undefined);
  const { plan, strategy, params } = useWindowPlan();
  const exact = useExactCut(plan, strategy, params, selected);

  // A message of many megabytes comes cut at first; Show all, or Edit, fetch it whole.
  const [full, setFull] = useState(false);
  useEffect(() => setFull(false), [openPath, selected]);

  useEffect(() => {
    // Asking for all of a message keeps its cut part on screen meanwhile; an open editor stays with its draft.
    const drafting = useApp.getState().editing === selected && useApp.getState().draftDirty;
    setDetail((d) => ((full && d?.index === selected) || (drafting && d) ? d : undefined));
    setError(undefined);
    if (!openPath || selected === undefined) return;
    let live = true;
    request('conversation:message', { path: openPath, conversation: useApp.getState().openConversationIndex, index: selected, full })
      .then((d) => live && setDetail(d))
      .catch((e) => live && setError((e as Error).message));
    return () => {
      live = false;
    };
  }, [openPath, selected, generation, full]);
  // An editor is only ever given the whole message.
  useEffect(() => {
    if (editing && detail?.truncated) setFull(true);
  }, [editing, detail]);

  if (selected === undefined) return <section className="detail empty" id="detail" tabIndex={-1} aria-label="Message detail" onKeyDown={backToTable}><p>Select a message (↑/↓, Enter) to read it in full{useApp.getState().skeleton?.readOnly?.edits === false ? '.' : '; double-click it or press E to edit it.'}</p></section>;
  if (error) return <section className="detail" id="detail" tabIndex={-1} aria-label="Message detail" onKeyDown={backToTable}><p className="error-text">{error}</p></section>;
  if (!detail || (detail.index !== selected && !(editing && drafting)) || (editing && detail.truncated))
    return (
      <section className="detail" id="detail" tabIndex={-1} aria-label="Message detail" onKeyDown={backToTable}>
        {reading && rowPreview !== undefined && <p data-testid="detail-preview">{rowPreview}</p>}
        <p className="loading">{detail?.index === selected && detail.truncated ? `Loading all ${formatBytes(detail.truncated.raw)} of message ${selected}…` : reading ? `Message ${selected} shows in full once the whole file is read.` : `Loading message ${selected}…`}</p>
      </section>
    );

  const m = detail.message as Record<string, unknown>;
  const v = detail.view;
  const swarms = skeleton?.swarms ?? true;
  const usage = skeleton ? sparseGet(skeleton.usage, selected) : undefined;
  const row = selectedRow?.index === selected ? selectedRow : undefined;
  const reasoningTokens = counts?.reasoningTokens?.[selected] ?? row?.reasoningTokens ?? 0;
  const recount = counts?.tokens[selected] ?? row?.tokens;
  const toolTokens = counts?.toolTokens?.[selected] ?? row?.toolTokens ?? 0;
  const contentRecount = recount === undefined ? undefined : recount - toolTokens;
  const stored = skeleton?.storedTokens[selected] ?? -1;
  const structured = swarms ? typeof m.content !== 'string' : !v.parts.every((p) => p.kind === 'text');
  // A message of tool calls alone has an empty content: shown empty, its calls as the cards below (the text the
  // table shows for it is those calls).
  const ownText = swarms && m.content === '' ? '' : detail.text;
  // The exact cut once main has answered (it can differ from the estimate by a message); the estimate until then.
  const cut = exact ? (exact.cut ? { keep: exact.cut.keep, offset: exact.cut.offset, approximate: false } : plan?.cuts[selected]) : plan?.cuts[selected];
  const { role: _r, content: _c, timestamp: _ts, message_id: _id, category: _cat, metadata, token_count: _t, ...extra } = m;
  return (
    <section className="detail" id="detail" tabIndex={-1} aria-label="Message detail" onKeyDown={backToTable} data-testid="detail" ref={pane}>
      <header className="detail-head">
        <strong>message {selected}</strong>
        <RoleChip role={v.role} normal={v.normalRole} />
        {v.category && <span className="badge">{v.category}</span>}
        {v.sidechain && <span className="badge" title="A sub-agent's or side chain's message">sub-agent</span>}
        {v.meta && <span className="badge" title="Written by the tool, not the user or the model">meta</span>}
        {v.summary && <span className="badge" title="A summary a compaction wrote">summary</span>}
        <span data-testid="detail-tokens" title="Estimated: what the model is sent for this message, counted here">{recount === undefined ? '…' : formatNumber(recount)} tokens{counts ? ` (${counts.encoding}${counts.approximate ? ', approximate' : ''})` : ''}</span>
        {toolTokens > 0 && <span className="muted" data-testid="detail-tool-tokens">{contentRecount} for the content + {toolTokens} for tool calls (names and arguments)</span>}
        {reasoningTokens > 0 && <span className="muted" data-testid="detail-reasoning-tokens" title="Reasoning is counted apart: most APIs do not send it back">+ {reasoningTokens} of reasoning</span>}
        {usage && (
          <span className="usage" data-testid="detail-usage" title="What the API reported for this model call, as the file records it (not an estimate): every prompt token, the cached ones among them">
            reported: {describeUsage(usage)}
          </span>
        )}
        {stored >= 0 && stored !== contentRecount && <span className="stored" title="The file's own token_count, which counts the content alone">stored token_count: {stored}</span>}
        {v.model && <span className="muted mono">{v.model}</span>}
        {v.timestamp && <span className="muted">{v.timestamp}</span>}
        {v.id && <span className="mono muted">{v.id}</span>}
        <span className="spacer" />
        {!editing && useApp.getState().skeleton?.readOnly?.edits !== false && <button onClick={() => setEditing(true)} data-testid="edit-button" title="Edit (E)">Edit</button>}
        <div role="tablist" aria-label="Detail view" onKeyDown={(e) => moveAmongButtons(e, e.currentTarget, false)?.click()}>
          <button role="tab" aria-selected={view === 'content'} tabIndex={view === 'content' ? 0 : -1} onClick={() => switchView('content')} data-testid="view-content">Content</button>
          <button role="tab" aria-selected={view === 'raw'} tabIndex={view === 'raw' ? 0 : -1} onClick={() => switchView('raw')} data-testid="view-raw">Raw</button>
        </div>
      </header>
      {!editing && <FateNote selected={selected} />}
      {!editing && <MessageFindings index={selected} />}
      {search && !editing && view === 'content' && <SearchHits query={search} message={selected} />}
      {detail.truncated && !editing && (
        <p className="banner" role="status" data-testid="truncated-note">
          This message is {formatBytes(detail.truncated.raw)}: its first {formatBytes(detail.raw.length)} are shown.{' '}
          {full ? <span className="loading">Loading all of it…</span> : <button onClick={() => setFull(true)} data-testid="show-all">Show all</button>}
        </p>
      )}
      <SecretMarks.Provider value={editing ? NO_MARKS : marks}>
      {editing ? (
        swarms ? (
          <MessageEditor key={editingSession} index={selected} message={m} onDone={() => setEditing(false)} />
        ) : (
          <RecordEditor key={editingSession} index={selected} record={m} text={detail.text} editableText={detail.editableText} onDone={() => setEditing(false)} />
        )
      ) : view === 'content' && !swarms && skeleton && !((cut && !structured) || exact?.cut) ? (
        <>
          {v.compaction && <CompactionCard view={v} skeleton={skeleton} index={selected} />}
          {(!v.compaction || v.parts.length > 0) && <Parts view={v} skeleton={skeleton} query={search} />}
        </>
      ) : view === 'content' ? (
        <>
          {(cut && !structured) || exact?.cut ? (
            <CutContent estimate={cut ?? { keep: 'end', offset: 0, approximate: true }} text={detail.text} length={detail.truncated?.text ?? detail.text.length} exact={exact} />          ) : (
            <pre className={`content ${structured ? 'json' : ''}`} data-testid="detail-content">
              {structured ? <Highlight text={JSON.stringify(m.content, null, 2)} query={search} /> : ownText ? <Highlight text={ownText} query={search} /> : <span className="muted">(empty)</span>}
            </pre>
          )}
          {swarms && skeleton && <ToolCallCards view={v} skeleton={skeleton} query={search} shown={structured ? JSON.stringify(m.content) : ownText} />}
          {swarms && (metadata !== undefined || Object.keys(extra).length > 0) && (
            <div className="meta">
              <h3>metadata and other keys</h3>
              <pre className="json">{JSON.stringify({ ...(metadata !== undefined ? { metadata } : {}), ...extra }, null, 2)}</pre>
            </div>
          )}
        </>
      ) : (
        <RawView raw={detail.raw} />
      )}
      </SecretMarks.Provider>
    </section>
  );
}

/**
 * What the window plan does to this message when it drops or summarises it (a cut one shows its cut): said at
 * the top of the detail pane, as the row's colour says it in the table.
 */
function FateNote({ selected }: { selected: number }) {
  const { plan, strategy } = useWindowPlan();
  const turnView = useApp((s) => s.turnView);
  const shown = turnView?.plan ?? plan;
  if (!shown || selected >= shown.fates.length) return null;
  if (turnView && selected >= turnView.end) {
    return (
      <p className="banner fate-banner" role="status" data-testid="fate-note" data-fate="future">
        Not sent yet at turn {turnView.turn}: this message comes later in the conversation.
      </p>
    );
  }
  const fate = FATES[shown.fates[selected]];
  if (fate !== 'dropped' && fate !== 'summarised') return null;
  return (
    <p className={`banner fate-banner fate-${fate}`} role="status" data-testid="fate-note" data-fate={fate}>
      {fate === 'dropped' ? `⨯ Dropped under ${strategy.label}: the model is not sent this message.` : `Σ Summarised under ${strategy.label}: the model is sent a summary in its place, not this text.`}
    </p>
  );
}

/**
 * The record's text as the file has it. A JSONL line (one long line) is shown laid out, one key a line, with
 * the file's own bytes a click away; text that is not JSON, or already laid out, is shown as it is.
 */
function RawView({ raw }: { raw: string }) {
  const [asFile, setAsFile] = useState(false);
  const laidOut = useMemo(() => {
    if (raw.includes('\n') || raw.length > 4_000_000) return undefined;
    try {
      return JSON.stringify(JSON.parse(raw), null, 2);
    } catch {
      return undefined;
    }
  }, [raw]);
  return (
    <>
      {laidOut !== undefined && (
        <p className="muted small raw-toggle">
          {asFile ? 'As the file has it (one line).' : 'Laid out, one key a line.'}{' '}
          <button className="link small" onClick={() => setAsFile(!asFile)} data-testid="raw-as-file">
            {asFile ? 'lay it out' : 'as in the file'}
          </button>
        </p>
      )}
      <pre className="json raw" data-testid="detail-raw">{laidOut !== undefined && !asFile ? laidOut : raw}</pre>
    </>
  );
}
