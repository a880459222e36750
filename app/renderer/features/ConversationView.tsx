import { Splitter } from './Splitter.js';
import { useEffect, useMemo, useRef } from 'react';
import { useApp, useAppPick } from '../store/index.js';
import { addUp, describeUsage } from '../../../src/core/usage.js';
import { estimateNote } from '../../../src/core/tokenizer/estimate.js';
import { FileCountNote } from './tree/FileCountNote.js';
import { DEFAULT_LAYOUT } from '../store/layout.js';
import { DetailPane } from './detail/DetailPane.js';
import { formatBytes, formatNumber } from './roles.js';
import { MessageTable } from './table/MessageTable.js';
import { Banners } from './commands/Banners.js';
import { NO_CATEGORY } from './table/order.js';
import { FLAGS, UNREAD_ROLE, type Skeleton } from '../../shared/contract.js';
import { ThreadBar } from './tree/ThreadBar.js';
import { SecretsBanner, SecretsToggle } from './secrets/SecretsBar.js';
import { Transcript } from './transcript/Transcript.js';
import { shortcutOf } from './commands/registry.js';

export function ConversationView() {
  const { openPath, skeleton, opening, openError, provisional, closeConversation, counts, search, setSearch, searchMatches, roleFilter, toggleRole, categoryFilter, toggleCategory, chainFilter, setChainFilter, windowOpen, toggleWindow, shownCount, shownTokens, clearFilters, selected, layout, resize, detailCollapsed, setDetailCollapsed, turnView, pendingJump, secretsOnly, transcriptOpen, toggleTranscript, goToMatch, editing } = useAppPick('openPath', 'skeleton', 'opening', 'openError', 'provisional', 'closeConversation', 'counts', 'search', 'setSearch', 'searchMatches', 'roleFilter', 'toggleRole', 'categoryFilter', 'toggleCategory', 'chainFilter', 'setChainFilter', 'windowOpen', 'toggleWindow', 'shownCount', 'shownTokens', 'clearFilters', 'selected', 'layout', 'resize', 'detailCollapsed', 'setDetailCollapsed', 'turnView', 'pendingJump', 'secretsOnly', 'transcriptOpen', 'toggleTranscript', 'goToMatch', 'editing');
  const filtered = search !== '' || roleFilter.size > 0 || categoryFilter.size > 0 || chainFilter !== 'all' || secretsOnly;
  // While a big file is read, filters count only the messages read so far (its head, and its end where shown).
  const reading = provisional !== undefined && opening;
  const readSoFar = provisional?.ends ? provisional.ends.head + provisional.ends.count - provisional.ends.from : (skeleton?.count ?? 0);
  const searchRef = useRef<HTMLInputElement>(null);
  // A pass over every message: asked once per skeleton, not on every render (a slider step renders this).
  const hasSidechain = useMemo(() => skeleton?.flags.some((f) => f & FLAGS.sidechain) ?? false, [skeleton]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && e.target === searchRef.current) setSearch('');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setSearch]);

  if (!openPath) return <main className="main empty-state"><p>Choose a conversation on the left. Files an agent writes or changes in this folder appear and update as it works.</p></main>;
  if (openError) {
    return (
      <main className="main">
        <div className="open-error" role="alert" data-testid="open-error">
          <h2>{openPath} cannot be read</h2>
          <p className="mono">{openError.message}</p>
          {openError.wellFormed ? (
            <p data-testid="open-error-shape">The file is well formed; its shape is none of the formats this tool reads (those tried are named above). Nothing in it needs fixing for its own tool; the README's Formats section lists what is read.</p>
          ) : openError.line !== undefined && <p>Look at line {openError.line}, column {openError.column} of the file. Fix it in an editor; this view reloads by itself when the file changes.</p>}
        </div>
      </main>
    );
  }
  if (!skeleton)
    return (
      <main className="main">
        {opening && (
          <p className="loading">
            Opening {openPath}… <button className="link" onClick={() => closeConversation()} data-testid="cancel-open">Cancel (Esc)</button>
          </p>
        )}
      </main>
    );
  const categories = [...skeleton.categories, ...(skeleton.categoryOf.includes(-1) ? [NO_CATEGORY] : [])];
  // Which conversation of the file this is: its thread, its place in a dataset, its title.
  const which = skeleton.threads ? (skeleton.threads.find((t) => t.conversation === skeleton.conversation)?.title ?? 'thread') : skeleton.conversations > 1 ? `conversation ${skeleton.conversation + 1} of ${formatNumber(skeleton.conversations)}${skeleton.title ? ` · ${skeleton.title}` : ''}` : skeleton.title;
  return (
    <main className="main">
      <div className="conv-head">
        {/* One line, cut at its start: the folders give way before the file's own name does. */}
        <h1 data-testid="conv-title" title={skeleton.path}>
          {skeleton.path}
        </h1>
        {/* The counts first: on a narrow window the line is cut at its end, where the titles are (whole on hover). */}
        <span className="muted" title={which}>
          {provisional && opening && !provisional.ends ? `first ${formatNumber(skeleton.count)}${provisional.estimated ? ` of ≈${formatNumber(provisional.estimated)}` : ''}` : formatNumber(skeleton.count)} msgs ·{' '}<CountedTotal skeleton={skeleton} />
          <FileCountNote skeleton={skeleton} />
          {skeleton.other > 0 ? ` · ${formatNumber(skeleton.other)} other record${skeleton.other === 1 ? '' : 's'}` : ''} · <span title={skeleton.format}>{skeleton.formatLabel}</span> · {formatBytes(skeleton.bytes)}
          {which ? ` · ${which}` : ''}
        </span>
      </div>
      <ThreadBar skeleton={skeleton} />
      <UnreadNote skeleton={skeleton} />
      <CutLineNote skeleton={skeleton} />
      {provisional && opening && (
        <p className="banner reading" role="status" data-testid="reading-banner">
          {provisional.ends ? (
            <>
              Reading {formatBytes(provisional.size)}… the first {formatNumber(provisional.ends.head)} and the last {formatNumber(provisional.ends.count - provisional.ends.from)} of its {formatNumber(provisional.ends.count)} messages are shown; those between (…), editing and counting come once it is read.{' '}
            </>
          ) : (
            <>
              Reading {formatBytes(provisional.size)}… the first {formatNumber(skeleton.count)} messages are shown from the start of the file
              {provisional.estimated ? ` (about ${formatNumber(provisional.estimated)} in all)` : ''}; editing and counting begin once it is read.{' '}
            </>
          )}
          {pendingJump && (
            <strong data-testid="pending-jump">{pendingJump.to === 'end' ? 'Going to the last message' : `Going to message ${formatNumber(pendingJump.to)}`} when it is read. </strong>
          )}
          <button className="link" onClick={() => closeConversation()} data-testid="cancel-open">Cancel (Esc)</button>
        </p>
      )}
      <div className="toolbar">
        <input ref={searchRef} type="search" className="search" placeholder="Search content  ( / )" aria-label="Search message content" value={search} onChange={(e) => setSearch(e.target.value)} onKeyDown={(e) => {
            // Enter goes from match to match (Shift+Enter back), in the table and the transcript alike.
            if (e.key === 'Enter' && searchMatches && searchMatches.size > 0) {
              e.preventDefault();
              goToMatch(e.shiftKey ? -1 : 1);
            }
          }} data-testid="search" />
        <span className="filters" role="group" aria-label="Read the conversation as">
          <button className={`chip-toggle ${transcriptOpen ? '' : 'on'}`} aria-pressed={!transcriptOpen} onClick={() => toggleTranscript(false)} data-testid="view-table" title={`The messages as a table, a line each (${shortcutOf('transcript')} switches)`}>
            Table
          </button>
          <button className={`chip-toggle ${transcriptOpen ? 'on' : ''}`} aria-pressed={transcriptOpen} onClick={() => toggleTranscript(true)} data-testid="view-transcript" title={`The conversation as a transcript to read: turns, Markdown, tool calls as cards (${shortcutOf('transcript')} switches)`}>
            Transcript ({shortcutOf('transcript')})
          </button>
        </span>
        <button className={`chip-toggle ${windowOpen ? 'on' : ''}`} aria-pressed={windowOpen} onClick={() => toggleWindow()} data-testid="toggle-window" title="Preview a context-window strategy (W)">
          Window (W)
        </button>
        {turnView && (
          <span className="turn-note" data-testid="turn-note" title="The turn slider in the window panel: drag it to its end for the whole conversation">
            the window at turn {formatNumber(turnView.turn)} of {formatNumber(turnView.turns)}: messages from {formatNumber(turnView.end)} on not sent yet
          </span>
        )}
        {searchMatches && <span className="muted" data-testid="match-count">{formatNumber(searchMatches.size)} match{searchMatches.size === 1 ? '' : 'es'}</span>}
        {searchMatches && searchMatches.size > 0 && <MatchNav matches={searchMatches} selected={selected} go={goToMatch} />}
        {filtered && shownCount !== undefined && !transcriptOpen && (
          <span className="muted" data-testid="shown-count">
            {reading
              ? [search !== '' && !searchMatches && 'the search runs once the file is read', (roleFilter.size > 0 || categoryFilter.size > 0 || chainFilter !== 'all' || secretsOnly) && `${formatNumber(shownCount)} of the ${formatNumber(readSoFar)} read so far shown`].filter(Boolean).join(' · ')
              : `${formatNumber(shownCount)} of ${formatNumber(skeleton.count)} shown`}
            {shownTokens !== undefined && counts && <span data-testid="shown-tokens">{` · ${formatNumber(shownTokens)} of ${formatNumber(counts.total)} tok`}</span>} ·{' '}
            <button className="link muted" onClick={() => clearFilters()} data-testid="clear-filters">
              clear filters
            </button>
          </span>
        )}
        {!transcriptOpen && <span className="filters" role="group" aria-label="Filter by role">
          {skeleton.roles.filter((r) => !(provisional?.ends && r === UNREAD_ROLE)).map((r) => (
            <button key={r} className={`chip-toggle ${roleFilter.has(r) ? 'on' : ''}`} aria-pressed={roleFilter.has(r)} onClick={() => toggleRole(r)}>{r}</button>
          ))}
        </span>}
        {/* A session shown as its threads has one thread per view: no sub-agent rows to filter. */}
        {hasSidechain && !skeleton.threads && !transcriptOpen && (
          <span className="filters" role="group" aria-label="Sub-agent messages">
            {(['all', 'main', 'sidechain'] as const).map((c) => (
              <button key={c} className={`chip-toggle ${chainFilter === c ? 'on' : ''}`} aria-pressed={chainFilter === c} onClick={() => setChainFilter(c)} data-testid={`chain-${c}`}>
                {c === 'all' ? 'all' : c === 'main' ? 'main thread' : '↳ sub-agents'}
              </button>
            ))}
          </span>
        )}
        {categories.length > 0 && !transcriptOpen && (
          <span className="filters" role="group" aria-label="Filter by category">
            {categories.map((c) => (
              <button key={c} className={`chip-toggle ${categoryFilter.has(c) ? 'on' : ''}`} aria-pressed={categoryFilter.has(c)} onClick={() => toggleCategory(c)}>{c}</button>
            ))}
          </span>
        )}
        {/* Last: it comes and goes as the scan runs, and nothing after it moves when it does. */}
        <SecretsToggle />
      </div>
      <SecretsBanner />
      <Banners />
      {transcriptOpen && filtered && (roleFilter.size > 0 || categoryFilter.size > 0 || chainFilter !== 'all' || secretsOnly) && (
        <p className="banner" role="note" data-testid="transcript-filters-note">
          The transcript shows every message; the table&apos;s filters stay for when you go back to it.
        </p>
      )}
      {transcriptOpen ? <Transcript /> : <MessageTable />}
      {/* The transcript shows each message whole: the detail pane is for the table, and for editing. */}
      {(!transcriptOpen || editing !== undefined) && <>
      {selected !== undefined && !detailCollapsed && <Splitter label="Resize the message detail" vertical={false} size={detailHeight(layout.detail)} sign={-1} onResize={(px) => resize('detail', px)} onReset={() => resize('detail', DEFAULT_LAYOUT.detail)} testid="split-detail" />}
      <div className={`detail-slot ${selected === undefined ? 'idle' : detailCollapsed ? 'collapsed' : ''}`} style={selected !== undefined && !detailCollapsed ? { height: detailHeight(layout.detail) } : undefined}>
        {selected !== undefined && (
          <button className="detail-fold" onClick={() => setDetailCollapsed(!detailCollapsed)} aria-expanded={!detailCollapsed} data-testid="detail-fold" title={detailCollapsed ? 'Show the message detail' : 'Fold the message detail'} aria-label={detailCollapsed ? 'Show the message detail' : 'Fold the message detail'}>
            {detailCollapsed ? `▸ message ${selected}` : '▾'}
          </button>
        )}
        {!detailCollapsed && <DetailPane />}
      </div>
      </>}
    </main>
  );
}

/** Where the selected message stands among the search's matches, and ‹ › to the one before or after (Enter, F3). */
function MatchNav({ matches, selected, go }: { matches: Set<number>; selected: number | undefined; go(step: 1 | -1): void }) {
  const at = useMemo(() => {
    if (selected === undefined || !matches.has(selected)) return undefined;
    let k = 0;
    for (const m of matches) if (m < selected) k++;
    return k + 1;
  }, [matches, selected]);
  return (
    <span className="match-nav" data-testid="match-nav">
      <button className="link" onClick={() => go(-1)} aria-label={`Previous match (${shortcutOf('prev-match')})`} title={`Previous match (${shortcutOf('prev-match')})`} data-testid="match-prev">
        ‹
      </button>
      {at !== undefined && <span className="muted" data-testid="match-at" title={`The selected message is match ${formatNumber(at)} of ${formatNumber(matches.size)}`}>{formatNumber(at)}/{formatNumber(matches.size)}</span>}
      <button className="link" onClick={() => go(1)} aria-label={`Next match (${shortcutOf('next-match')})`} title={`Next match (${shortcutOf('next-match')}, Enter in the search box)`} data-testid="match-next">
        ›
      </button>
    </span>
  );
}

/** A last line that is not whole JSON yet: an agent still writing it, or a write cut off. Said, never silently left out. */
function CutLineNote({ skeleton }: { skeleton: Skeleton }) {
  if (skeleton.cutLine === undefined) return null;
  return (
    <p className="banner" role="note" data-testid="cut-line-note">
      Line {formatNumber(skeleton.cutLine)} is not whole JSON (the agent may still be writing it, or the write was cut off): it is not shown, kept as it is on save, and looked into for secrets.
    </p>
  );
}

/** Said once per file: how many messages hold a part this reader does not know (each shown as an unread part). */
function UnreadNote({ skeleton }: { skeleton: Skeleton }) {
  const unread = useMemo(() => skeleton.flags.reduce((n, f) => n + (f & FLAGS.unread ? 1 : 0), 0), [skeleton.flags]);
  if (unread === 0) return null;
  return (
    <p className="banner" role="note" data-testid="unread-note">
      {formatNumber(unread)} of {formatNumber(skeleton.count)} message{skeleton.count === 1 ? ' has' : 's have'} parts this reader does not know: each is shown as an unread part with its raw JSON, kept as it is on save.
    </p>
  );
}

/**
 * The detail pane's height: the one the user dragged it to, or by default at most 38% of the window, so that a
 * laptop's window (700 px) still shows a screen of rows above it.
 */
function detailHeight(chosen: number): number {
  if (chosen !== DEFAULT_LAYOUT.detail) return chosen;
  return Math.min(chosen, Math.max(160, Math.round((globalThis.innerHeight || 900) * 0.38)));
}

/**
 * The header's token figure: what the file records the API reported leads (the last call's prompt and what was
 * written, with the cost at list prices), then the count made here, "≈" where it is an estimate, with the
 * encoding that stands in on hover.
 */
export function CountedTotal({ skeleton }: { skeleton: Skeleton }) {
  const counts = useApp((s) => s.counts);
  const report = useMemo(() => addUp(skeleton.usage.values), [skeleton.usage]);
  const mine = counts && counts.path === skeleton.path && counts.conversation === skeleton.conversation ? counts : undefined;
  const note = mine ? estimateNote(mine.model, skeleton.model) : undefined;
  return (
    <>
      {report && (
        <span data-testid="header-reported" title={`Reported by the API for ${formatNumber(report.calls)} model call${report.calls === 1 ? '' : 's'}: ${describeUsage(report)}`}>
          {report.inputCalls === 0 ? 'input not recorded' : `${formatNumber(report.input)} in`} · {report.outputCalls === 0 ? 'output not recorded' : `${formatNumber(report.output)} out`} reported ·{' '}
        </span>
      )}
      {note && (
        <span data-testid="token-estimate" title={`An estimate: ${note}`}>
          ≈{' '}
        </span>
      )}
      <span data-testid="token-total" title={note ? `Counted here, an estimate: ${note}` : mine ? `Counted here for ${mine.model} (${mine.encoding})` : undefined}>
        {mine ? `${formatNumber(mine.total)} tok` : '… tok'}
      </span>
    </>
  );
}
