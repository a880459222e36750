import { Splitter } from './Splitter.js';
import { useEffect, useMemo, useRef } from 'react';
import { useAppPick } from '../store/index.js';
import { DEFAULT_LAYOUT } from '../store/layout.js';
import { DetailPane } from './detail/DetailPane.js';
import { formatBytes, formatNumber } from './roles.js';
import { MessageTable } from './table/MessageTable.js';
import { Banners } from './commands/Banners.js';
import { SessionHeader } from './header/SessionHeader.js';
import { SessionControls } from './header/SessionControls.js';
import { FilterMenu } from './header/FilterMenu.js';
import { TurnStrip } from './header/TurnStrip.js';
import { SecretsBanner, SecretsToggle } from './secrets/SecretsBar.js';
import { Transcript } from './transcript/Transcript.js';
import { shortcutOf } from './commands/registry.js';
import { StoreOverviewPanel } from './sessions/StoreOverviewPanel.js';

export function ConversationView() {
  const { openPath, skeleton, opening, openError, provisional, closeConversation, counts, search, setSearch, searchMatches, roleFilter, categoryFilter, chainFilter, windowOpen, toggleWindow, shownCount, shownTokens, clearFilters, selected, layout, resize, detailCollapsed, setDetailCollapsed, turnView, pendingJump, secretsOnly, transcriptOpen, toggleTranscript, goToMatch, editing } = useAppPick('openPath', 'skeleton', 'opening', 'openError', 'provisional', 'closeConversation', 'counts', 'search', 'setSearch', 'searchMatches', 'roleFilter', 'categoryFilter', 'chainFilter', 'windowOpen', 'toggleWindow', 'shownCount', 'shownTokens', 'clearFilters', 'selected', 'layout', 'resize', 'detailCollapsed', 'setDetailCollapsed', 'turnView', 'pendingJump', 'secretsOnly', 'transcriptOpen', 'toggleTranscript', 'goToMatch', 'editing');
  const filtered = search !== '' || roleFilter.size > 0 || categoryFilter.size > 0 || chainFilter !== 'all' || secretsOnly;
  // While a big file is read, filters count only the messages read so far (its head, and its end where shown).
  const reading = provisional !== undefined && opening;
  const readSoFar = provisional?.ends ? provisional.ends.head + provisional.ends.count - provisional.ends.from : (skeleton?.count ?? 0);
  const searchRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && e.target === searchRef.current) setSearch('');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setSearch]);

  if (!openPath)
    return (
      <main className="main empty-state">
        <StoreOverviewPanel />
        <p>Choose a conversation on the left. Files an agent writes or changes in this folder appear and update as it works.</p>
      </main>
    );
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
  return (
    <main className="main">
      <SessionHeader skeleton={skeleton} provisional={provisional && opening ? provisional : undefined} />
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
            <strong data-testid="pending-jump">{pendingJump.to === 'end' ? 'Going to the last message' : `Going to message ${formatNumber(pendingJump.session ?? pendingJump.to)}${pendingJump.session !== undefined ? ` of the session (${formatNumber(pendingJump.to)} of this part)` : ''}`} when it is read. </strong>
          )}
          <button className="link" onClick={() => closeConversation()} data-testid="cancel-open">Cancel (Esc)</button>
        </p>
      )}
      <div className="toolbar">
        <input ref={searchRef} type="search" className="search" placeholder="Search  ( / )" aria-label="Search message content" value={search} onChange={(e) => setSearch(e.target.value)} onKeyDown={(e) => {
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
        {/* The transcript shows every message: the table's filters wait for it. */}
        {!transcriptOpen && <FilterMenu skeleton={skeleton} betweenEnds={!!provisional?.ends} />}
        <button className={`chip-toggle ${windowOpen ? 'on' : ''}`} aria-pressed={windowOpen} onClick={() => toggleWindow()} data-testid="toggle-window" title="Preview a context-window strategy (W)">
          Window (W)
        </button>
        <SessionControls skeleton={skeleton} />
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
      <TurnStrip skeleton={skeleton} />
      {/* A session of its own mounts its own transcript: placed at its chosen message, not scrolled from the last one's. */}
      {transcriptOpen ? <Transcript key={`${skeleton?.path}#${skeleton?.conversation}`} /> : <MessageTable />}
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

/**
 * The detail pane's height: the one the user dragged it to, or by default at most 38% of the window, so that a
 * laptop's window (700 px) still shows a screen of rows above it.
 */
function detailHeight(chosen: number): number {
  if (chosen !== DEFAULT_LAYOUT.detail) return chosen;
  return Math.min(chosen, Math.max(160, Math.round((globalThis.innerHeight || 900) * 0.38)));
}

/** The header's token figure lives with the header; named here too, where it was first. */
export { CountedTotal } from './header/CountedTotal.js';
