import { Fragment, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { termMatches } from '../../../../src/core/search/snippet.js';
import { queryTerms } from '../../../../src/core/search/words.js';
import type { SearchHitRow, SessionEntry } from '../../../shared/contract.js';
import { useApp } from '../../store/index.js';
import { closeOnEscape } from '../close-on-escape.js';
import { formatNumber } from '../roles.js';
import { RoleChip } from '../RoleChip.js';
import { lastActive, projectLabel, relativeTime } from '../sessions/session-rows.js';

const ROLES = ['user', 'assistant', 'system', 'tool', 'other'] as const;
const TYPING_MS = 120;

function Snippet({ hit, query, regex }: { hit: SearchHitRow; query: string; regex: boolean }) {
  if (hit.snippet === undefined || hit.match === undefined) return <span className="search-snippet muted">…</span>;
  const text = hit.snippet;
  // Every word of the query the line shows is marked, as the file's search marks them; a regex, its match.
  const marks = regex ? [hit.match] : termMatches(text, queryTerms(query));
  if (!marks.some(([a, b]) => a === hit.match![0] && b === hit.match![1])) marks.push(hit.match);
  marks.sort((x, y) => x[0] - y[0]);
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [a, b] of marks) {
    if (a < at) continue;
    parts.push(text.slice(at, a), <mark key={a}>{text.slice(a, b)}</mark>);
    at = b;
  }
  parts.push(text.slice(at));
  return <span className="search-snippet" data-testid="search-snippet">{parts}</span>;
}

/**
 * Why the table does not show a hit until it is opened, in words (`offPath`): a session's history before a
 * compaction, which the model no longer sees, or a branch the session left (a rewind, an edited prompt).
 */
const OFF_PATH = {
  earlier: { tag: 'before compaction', says: 'Before a compaction: the model no longer sees this message. Opening it shows the whole session, the history before the compaction included.' },
  branch: { tag: 'other branch', says: 'On a branch the session did not go on with (a rewind, an edited prompt, a regenerated answer). Opening it shows that branch.' },
} as const;
const OFF_PATH_ANY = 'Not on the path the table opens at (before a compaction, or on a branch the session left). Opening it shows it where it is.';

/**
 * A hit's number as the table numbers it: its thread's row in a session shown by threads (the file's order
 * otherwise), with the conversation or thread first where the file has several. A message on no thread the
 * table shows until asked (another branch, before a compaction) has none: ⤷, named by why, and opening it
 * shows its path.
 */
function HitNumber({ hit, multi }: { hit: SearchHitRow; multi: boolean }) {
  if (hit.shown === null) {
    const says = hit.offPath ? OFF_PATH[hit.offPath].says : OFF_PATH_ANY;
    return (
      <span className="index muted" data-testid="search-hit-number" role="img" aria-label={says} title={says}>
        ⤷
      </span>
    );
  }
  const { conversation, index } = hit.shown ?? hit;
  return (
    // The conversation as the header and the CLI number it ("conversation #1"), the row as the table (#0 first).
    <span className="index" data-testid="search-hit-number" title={multi ? `conversation #${conversation} of the file, row ${index} (both counted from 0, as the table and the CLI number them)` : `row ${index}`}>
      {multi ? `${conversation}:${index}` : index}
    </span>
  );
}

/** Before the line of a hit the table does not show until it is opened: why, in two words (the mark's words on hover). */
function OffPathTag({ hit }: { hit: SearchHitRow }) {
  if (hit.shown !== null || !hit.offPath) return null;
  return (
    <span className="off-path-tag" data-testid="search-hit-off-path" aria-hidden="true" title={OFF_PATH[hit.offPath].says}>
      {OFF_PATH[hit.offPath].tag}
    </span>
  );
}

/** The index's state in words: how much of the folders it holds, and whether it is still reading. */
function IndexStatus() {
  const status = useApp((s) => s.searchIndex);
  if (!status) return <span className="muted">Starting the index…</span>;
  const held = `${formatNumber(status.files)} files, ${formatNumber(status.messages)} messages indexed`;
  return <span className="muted" data-testid="search-all-status">{status.pending > 0 ? `Indexing… ${held}, ${formatNumber(status.pending)} files to go` : held}</span>;
}

/** Ctrl/Cmd+Shift+F: every conversation of the opened folders, results grouped by file; Enter opens one. */
export function SearchAllDialog() {
  const setOpen = useApp((s) => s.setSearchAllOpen);
  const answer = useApp((s) => s.searchAllAnswer);
  const error = useApp((s) => s.searchAllError);
  const regex = useApp((s) => s.searchAllRegex);
  const role = useApp((s) => s.searchAllRole);
  const busy = useApp((s) => s.searchAllBusy);
  const setSearchAll = useApp((s) => s.setSearchAll);
  const openHit = useApp((s) => s.openSearchHit);
  const showMore = useApp((s) => s.showMoreSearchAll);
  const [text, setText] = useState(() => useApp.getState().searchAllQuery);
  const [active, setActive] = useState(0);
  // The pointer picks a hit when it moves, not when ↓ scrolls a hit under a pointer at rest (Chromium then
  // sends a mouse event that did not move, at the same place).
  const pointer = useRef<{ x: number; y: number } | undefined>(undefined);
  const pointed = (e: { clientX: number; clientY: number; movementX?: number; movementY?: number }, i: number) => {
    const was = pointer.current;
    pointer.current = { x: e.clientX, y: e.clientY };
    const moved = (e.movementX ?? 0) !== 0 || (e.movementY ?? 0) !== 0 || (was !== undefined && (was.x !== e.clientX || was.y !== e.clientY));
    if (moved) setActive(i);
  };
  const list = useRef<HTMLDivElement>(null);
  const hits = answer?.hits ?? [];
  // Typing asks once it pauses; each answer replaces the last.
  useEffect(() => {
    if (text === useApp.getState().searchAllQuery) return;
    const t = setTimeout(() => setSearchAll({ query: text }), TYPING_MS);
    return () => clearTimeout(t);
  }, [text, setSearchAll]);
  // A new query starts at its first hit; the lines filled in later (or the folder read further) keep the user's place.
  useEffect(() => setActive(0), [answer?.query]);
  useEffect(() => {
    list.current?.querySelector(`[data-hit="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const entries = useApp((s) => s.entries);
  // What the sidebar calls each file and each part of one: its format's name, a part's place in its file.
  const named = useMemo(() => {
    const m = new Map<string, { name: string; format?: string }>();
    for (const e of entries) {
      m.set(e.path, { name: e.path, format: e.formatLabel });
      for (const p of e.parts ?? []) m.set(p.path, { name: `${e.path} · ${p.title}`, format: e.formatLabel });
    }
    return m;
  }, [entries]);
  // The session a file holds, by its title, as the session list names it: a file of several is named by its path.
  const sessions = useApp((s) => s.sessionsAnswer?.sessions);
  const sessionOf = useMemo(() => {
    const m = new Map<string, SessionEntry | null>();
    for (const s of sessions ?? []) m.set(s.path, m.has(s.path) || !saysSomething(s.title) ? null : s);
    return m;
  }, [sessions]);
  // A file of several sessions (Crush's database, an export): each hit says which, by its title.
  const titleOf = useMemo(() => {
    const several = new Set([...sessionOf].filter(([, s]) => s === null).map(([p]) => p));
    const m = new Map<string, string>();
    for (const s of sessions ?? []) if (several.has(s.path) && saysSomething(s.title)) m.set(`${s.path}\0${s.conversation}`, s.title!);
    return m;
  }, [sessions, sessionOf]);
  const groups = useMemo(() => {
    const out: Array<{ path: string; name: string; format: string; first: number; count: number }> = [];
    hits.forEach((h, i) => {
      const last = out[out.length - 1];
      if (last && last.path === h.path) last.count++;
      else out.push({ path: h.path, name: named.get(h.path)?.name ?? h.path, format: named.get(h.path)?.format ?? h.format, first: i, count: 1 });
    });
    return out;
  }, [hits, named]);
  // A file of several conversations numbers every hit conversation:row, whichever conversations the query found.
  const multi = useMemo(() => {
    const several = new Set(entries.filter((e) => (e.conversations ?? 1) > 1).map((e) => e.path));
    return new Set(hits.filter((h) => several.has(h.path) || (h.shown ? h.shown.conversation : h.conversation) > 0).map((h) => h.path));
  }, [hits, entries]);
  // While files are still being indexed, none found yet is not none at all.
  const pending = useApp((s) => s.searchIndex?.pending ?? 0);
  // A regular expression reads every file: past its time limit it stops, and says that not all were searched.
  const outOfTime = answer?.outOfTime !== undefined ? ` · stopped at its ${formatNumber(answer.outOfTime / 1000)} s limit: not every file was searched` : '';
  const summary = answer
    ? answer.total === 0
      ? pending > 0
        ? `No match yet: ${formatNumber(pending)} file${pending === 1 ? '' : 's'} still to index`
        : `No messages match${outOfTime}`
      : `${formatNumber(answer.atLeast && !outOfTime ? Math.floor(answer.total / 1000) * 1000 : answer.total)}${answer.atLeast ? '+' : ''} message${answer.total === 1 ? '' : 's'} in ${formatNumber(answer.files)}${answer.atLeast ? '+' : ''} file${answer.files === 1 ? '' : 's'}${(outOfTime ? answer.total > hits.length : answer.truncated) ? ` · the first ${formatNumber(hits.length)} listed` : ''}${outOfTime}`
    : '';
  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-label="Search all conversations" onClick={() => setOpen(false)} onKeyDown={closeOnEscape(() => setOpen(false))}>
      <div className="dialog-body search-all" onClick={(e) => e.stopPropagation()} data-testid="search-all">
        <div className="search-all-bar">
          <input
            autoFocus
            className="search"
            placeholder={regex ? 'A regular expression' : 'Words to find in every conversation'}
            aria-label="Search all conversations"
            data-testid="search-all-input"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') setActive((a) => Math.min(hits.length - 1, a + 1));
              else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
              else if (e.key === 'Enter' && hits[active]) void openHit(hits[active]);
              else return;
              e.preventDefault();
            }}
          />
          <label className="muted">
            <input type="checkbox" checked={regex} onChange={(e) => setSearchAll({ query: text, regex: e.target.checked })} /> regex
          </label>
          <select aria-label="Role" value={role ?? ''} onChange={(e) => setSearchAll({ query: text, role: (e.target.value || undefined) as (typeof ROLES)[number] | undefined })}>
            <option value="">all roles</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <button onClick={() => setOpen(false)} aria-label="Close">
            ×
          </button>
        </div>
        <div className="search-all-info">
          {/* The figures of the words last searched, dimmed while the words typed since are not asked yet. */}
          <span data-testid="search-all-summary" data-query={answer?.query ?? ''} data-busy={busy ? 'true' : undefined} className={answer && answer.query !== text ? 'stale' : undefined}>{error ? <span className="error">{error}</span> : busy && !answer ? 'Searching…' : summary}</span>
          <IndexStatus />
        </div>
        <div className="search-all-results" ref={list} role="listbox" aria-label="Matches">
          {groups.map((g) => (
            <Fragment key={g.path}>
              <div className="search-all-file" title={g.path}>
                <span className="where">
                  {sessionOf.get(g.path) && <SessionName session={sessionOf.get(g.path)!} />}
                  <FileName name={g.name} />
                </span>
                <span className="muted" data-testid="search-all-file-count">
                  {answer && answer.fileTotals[g.path] !== undefined && answer.fileTotals[g.path] > g.count ? `${formatNumber(g.count)} of ${formatNumber(answer.fileTotals[g.path])} matches` : `${formatNumber(g.count)} match${g.count === 1 ? '' : 'es'}`}
                  {/* A session's tool is said beside its title. */}
                  {sessionOf.get(g.path) ? '' : ` · ${g.format}`}
                </span>
              </div>
              {hits.slice(g.first, g.first + g.count).map((h, k) => {
                const i = g.first + k;
                return (
                  <div key={i} data-hit={i} role="option" aria-selected={i === active} className={`search-all-hit ${i === active ? 'active' : ''}`} onMouseMove={(e) => pointed(e, i)} onClick={() => void openHit(h)}>
                    <HitNumber hit={h} multi={multi.has(h.path)} />
                    <RoleChip role={h.spelled ?? h.role} normal={h.role} />
                    <span className="search-hit-line">
                      {titleOf.has(`${h.path}\0${h.conversation}`) && (
                        <span className="muted" data-testid="search-hit-session">
                          {titleOf.get(`${h.path}\0${h.conversation}`)} ·{' '}
                        </span>
                      )}
                      <OffPathTag hit={h} />
                      <Snippet hit={h} query={answer?.query ?? ''} regex={regex} />
                    </span>
                  </div>
                );
              })}
            </Fragment>
          ))}
          {answer?.truncated && hits.length < 2000 && (
            <button className="link" onClick={showMore} data-testid="search-all-more">
              Show more results
            </button>
          )}
        </div>
        <div className="search-all-keys muted" data-testid="search-all-keys">
          ↑ ↓ choose · Enter opens the message · Esc closes · {hits.some((h) => h.shown === null) ? '⤷ not on the path the table opens at: Enter shows it where it is · ' : ''}
          {regex ? 'a JavaScript regular expression, in any case (no lookahead or backreferences: every pattern runs in linear time)' : 'words match the start of words, in any case'}
        </div>
      </div>
    </div>
  );
}

/**
 * A group's file: its folders give way first (cut at their end), its own name never, so that a session and
 * its sub-agents' files, which share their folders, read apart.
 */
function FileName({ name }: { name: string }) {
  const cut = name.lastIndexOf('/', name.includes(' · ') ? name.indexOf(' · ') : name.length);
  return (
    <span className="name" data-testid="search-all-file-name">
      {cut > 0 && <span className="dir">{name.slice(0, cut + 1)}</span>}
      <span className="base">{name.slice(cut + 1)}</span>
    </span>
  );
}

// As the session list tells a title that says something (a letter or a digit) from none.
const saysSomething = (t: string | undefined): t is string => !!t && /[\p{L}\p{N}]/u.test(t);

/** A file's session as the session list names it: its title, then where and when (the path follows below). */
function SessionName({ session }: { session: SessionEntry }) {
  const where = [session.project && projectLabel(session.project), relativeTime(lastActive(session), Date.now()), session.tool].filter(Boolean).join(' · ');
  return (
    <span className="session" data-testid="search-all-session">
      <span className="title">{session.kind === 'subagent' ? `sub-agent · ${session.title}` : session.title}</span>
      <span className="muted">{where}</span>
    </span>
  );
}
