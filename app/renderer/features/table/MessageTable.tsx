import { createColumnHelper, FlexRender, tableFeatures, useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FLAGS, type Finding } from '../../../shared/contract.js';
import { SecretChip } from '../secrets/SecretChip.js';
import { PAGE_SIZE, partsAround } from '../../store/conversation.js';
import { useApp, useAppPick } from '../../store/index.js';
import type { SortKey } from '../../store/ui.js';
import { RoleChip } from '../RoleChip.js';
import { formatNumber } from '../roles.js';
import { displayOrder } from './order.js';
import { FATES } from '../../../../src/core/window/types.js';
import { useWindowPlan } from '../window/useWindowPlan.js';
import { FateStrip } from '../window/FateStrip.js';
import { fromFirstMatch, Highlight } from '../highlight.js';
import { moveMessages, runCommand } from '../commands/registry.js';
import { maxOf } from '../../../../src/core/util/numbers.js';
import { Splitter } from '../Splitter.js';
import { ForkSwitch, TaskThreadLink } from '../tree/ThreadBar.js';
import { DEFAULT_COLUMNS, type ColumnId } from '../../store/layout.js';
import { placeKey, reportPlace } from '../../store/transcript.js';

const isSized = (id: string): id is ColumnId => Object.prototype.hasOwnProperty.call(DEFAULT_COLUMNS, id);

const FATE_MARK: Record<string, string> = { kept: '', dropped: '⨯', cut: '✂', summarised: 'Σ' };

export interface ViewRow {
  index: number;
  role: string;
  normalRole: string;
  preview: string | undefined;
  tokens: number | undefined;
  /** The tool-call share of `tokens`. */
  toolTokens: number;
  /** Reasoning the message carries, counted apart from `tokens`. */
  reasoningTokens: number;
  stored: number;
  timestamp: string | undefined;
  category: string | undefined;
  messageId: string | undefined;
  flags: number;
  /** Secrets and personal data found in the message (not dismissed). */
  findings: Finding[] | undefined;
}

/** What a reader does that ends keeping the selected message in sight while the table settles. */
const ACTED = ['wheel', 'pointerdown', 'keydown'] as const;
const KEEP_MS = 10_000;
const ROW_HEIGHT = 28;
const features = tableFeatures({});
const column = createColumnHelper<typeof features, ViewRow>();

/** Where message `index` is in the rows shown, or the row shown nearest after it (filters may hide it). */
function nearestPosition(order: readonly number[], index: number): number {
  const at = order.indexOf(index);
  if (at >= 0) return at;
  let best = 0;
  for (let k = 0; k < order.length; k++) if (order[k] <= index && (order[best] > index || order[k] > order[best])) best = k;
  return best;
}

/** Local time of a stored timestamp (those without an offset are local already, as Date reads them). */
function localTime(timestamp: string | undefined): string {
  const t = timestamp === undefined ? NaN : Date.parse(timestamp);
  if (!Number.isFinite(t)) return timestamp ?? '';
  const d = new Date(t);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function MessageTable() {
  const { skeleton, pages, counts, firstCounts, searchMatches, roleFilter, categoryFilter, chainFilter, sort, setSort, selected, select, ensureRows, search, times, marked, toggleMark, columnWidths, resizeColumn, findings, secretsOnly } = useAppPick(
    'skeleton', 'pages', 'counts', 'firstCounts', 'searchMatches', 'roleFilter', 'categoryFilter', 'chainFilter', 'sort', 'setSort', 'selected', 'select', 'ensureRows', 'search', 'times', 'marked', 'toggleMark', 'columnWidths', 'resizeColumn', 'findings', 'secretsOnly',
  );
  // Findings of another version (a scan still under way after an edit) still mark their rows: a moment later they are found again.
  const found = findings && skeleton && findings.path === skeleton.path && findings.conversation === skeleton.conversation ? findings : undefined;
  const only = secretsOnly && found ? found.rows : undefined;
  const [dropAt, setDropAt] = useState<number | undefined>();
  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLDivElement>(null);
  const tokens = counts && skeleton && counts.path === skeleton.path && counts.conversation === skeleton.conversation && counts.tokens.length === skeleton.count ? counts.tokens : undefined;
  // Until the whole count is in, the first screen's counts (sorting and bars wait for all of them).
  const early = !tokens && firstCounts && skeleton && firstCounts.path === skeleton.path && firstCounts.conversation === skeleton.conversation ? firstCounts : undefined;
  const maxTokens = useMemo(() => (tokens ? maxOf(tokens, 1) : early ? maxOf(early.tokens, 1) : 1), [tokens, early]);
  const order = useMemo(
    () => (skeleton ? displayOrder(skeleton, { tokens, times, matches: searchMatches, only, roles: roleFilter, categories: categoryFilter, chain: chainFilter, sort }) : []),
    [skeleton, tokens, times, searchMatches, only, roleFilter, categoryFilter, chainFilter, sort],
  );
  // The toolbar says how many of the messages the filters leave.
  // And how many tokens those messages hold (the header keeps the whole conversation's figure).
  useEffect(() => {
    let sum: number | undefined;
    if (tokens) {
      sum = 0;
      for (let k = 0; k < order.length; k++) sum += tokens[order[k]];
    }
    const s = useApp.getState();
    if (s.shownCount !== order.length || s.shownTokens !== sum) useApp.setState({ shownCount: order.length, shownTokens: sum });
  }, [order, tokens]);
  const virtualizer = useVirtualizer({ count: order.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();

  useEffect(() => {
    if (!items.length) return;
    const wanted = new Set(items.map((it) => Math.floor(order[it.index] / PAGE_SIZE)));
    for (const page of wanted) ensureRows(page * PAGE_SIZE, page * PAGE_SIZE + 1);
  }, [items, order, ensureRows, pages]);

  const data: ViewRow[] = useMemo(() => {
    if (!skeleton) return [];
    return items.map((it) => {
      const i = order[it.index];
      const row = pages.get(Math.floor(i / PAGE_SIZE))?.[i % PAGE_SIZE];
      return {
        index: i,
        role: skeleton.roles[skeleton.roleOf[i]],
        normalRole: skeleton.normalRoles[skeleton.roleOf[i]],
        preview: row?.preview,
        tokens: tokens?.[i] ?? early?.tokens[i - early.start] ?? row?.tokens,
        toolTokens: (tokens ? counts?.toolTokens?.[i] : (early?.toolTokens[i - early.start] ?? row?.toolTokens)) ?? 0,
        reasoningTokens: (tokens ? counts?.reasoningTokens?.[i] : (early?.reasoningTokens[i - early.start] ?? row?.reasoningTokens)) ?? 0,
        stored: skeleton.storedTokens[i],
        timestamp: row?.timestamp,
        category: skeleton.categoryOf[i] >= 0 ? skeleton.categories[skeleton.categoryOf[i]] : undefined,
        messageId: row?.messageId,
        flags: skeleton.flags[i],
        // A user name in a path marks no row (a session's every line has one): the detail pane lists it.
        findings: found?.byRow.get(i)?.filter((f) => !f.dismissed && f.kind !== 'path'),
      };
    });
  }, [items, order, pages, skeleton, tokens, counts, early, found]);

  const hasTime = skeleton?.has?.time ?? true;
  const hasId = skeleton?.has?.id ?? true;
  const hasCategory = (skeleton?.categories.length ?? 0) > 0;
  const shows = useMemo(() => ({ time: hasTime, id: hasId, category: hasCategory }), [hasTime, hasId, hasCategory]);
  const columns = useMemo(
    () =>
      column.columns([
        column.accessor('index', {
          header: '#',
          cell: (c) => (
            <>
              {c.getValue()}
              {skeleton?.forks && <ForkSwitch skeleton={skeleton} index={c.getValue()} />}
            </>
          ),
        }),
        column.accessor('role', { header: 'role', cell: (c) => <RoleChip role={c.getValue()} normal={c.row.original.normalRole} /> }),
        column.accessor('preview', {
          header: 'content',
          cell: (c) => {
            const r = c.row.original;
            const marks = `${r.flags & FLAGS.sidechain ? '↳ ' : ''}${r.flags & FLAGS.toolCall ? '⚙ ' : ''}${r.flags & FLAGS.toolResult ? '↩ ' : ''}${r.flags & FLAGS.reasoning ? '∴ ' : ''}`;
            return r.preview === undefined ? <span className="loading">…</span> : (
              <>
                {skeleton && (skeleton.threads || skeleton.format === 'claude-code') && <TaskThreadLink skeleton={skeleton} index={r.index} />}
                {marks && (
                  <span className="marks" aria-label={[r.flags & FLAGS.sidechain && 'sub-agent', r.flags & FLAGS.toolCall && 'tool call', r.flags & FLAGS.toolResult && 'tool result', r.flags & FLAGS.reasoning && 'reasoning'].filter(Boolean).join(', ')}>
                    {marks}
                  </span>
                )}
                {r.flags & FLAGS.toolError ? (
                  <span className="tool-error-chip" title="The tool reported a failure: its result is an error" data-testid="tool-error-chip">
                    error
                  </span>
                ) : null}
                {r.findings && r.findings.length > 0 && <SecretChip findings={r.findings} />}
                {r.flags & FLAGS.unread ? (
                  <span className="unread-chip" title="A part this reader does not know: its raw JSON is in the detail pane" data-testid="unread-chip">
                    unread part
                  </span>
                ) : null}
                {r.preview === '' && !marks ? <span className="muted">({r.category ?? 'empty'})</span> : <Highlight text={fromFirstMatch(r.preview, search)} query={search} />}
              </>
            );
          },
        }),
        column.accessor('tokens', {
          header: () => <span title="Tokens the model is sent for each message: its content plus, for a tool call, the function's name and arguments">tokens</span>,
          cell: (c) => {
            const r = c.row.original;
            if (r.tokens === undefined) return <span className="loading">…</span>;
            // The file's token_count counts the content alone.
            const differs = r.stored >= 0 && r.stored !== r.tokens - r.toolTokens;
            const sent = r.toolTokens > 0 ? `${r.tokens} tokens sent: ${r.tokens - r.toolTokens} for the content + ${r.toolTokens} for tool calls (names and arguments)` : `${r.tokens} tokens`;
            const parts = r.reasoningTokens > 0 ? `${sent} · ${r.reasoningTokens} of reasoning, counted apart` : sent;
            return (
              <span className="tok" title={differs ? `${parts} · stored token_count ${r.stored} (content only)` : parts}>
                <span className="tok-bar" style={{ width: `${(100 * r.tokens) / maxTokens}%` }} />
                {r.reasoningTokens > 0 && (
                  <span className="tok-reasoning" data-testid="row-reasoning-tokens">
                    ∴{formatNumber(r.reasoningTokens)}
                  </span>
                )}
                <span className="tok-num" data-testid="row-tokens">{formatNumber(r.tokens)}</span>
                {differs && <span className="stored-dot" aria-label={`stored token_count ${r.stored}`}>•</span>}
              </span>
            );
          },
        }),
        // A column no message fills takes no room from the content.
        ...(shows.time ? [column.accessor('timestamp', { id: 'time', header: 'time', cell: (c) => <span title={c.getValue()}>{localTime(c.getValue())}</span> })] : []),
        ...(shows.category ? [column.accessor('category', { header: 'category', cell: (c) => c.getValue() ?? '' })] : []),
        ...(shows.id ? [column.accessor('messageId', { header: 'id', cell: (c) => <span className="mono" title={c.getValue()}>{c.getValue()?.slice(-8) ?? ''}</span> })] : []),
      ]),
    [search, maxTokens, shows, skeleton],
  );
  // The index column as wide as the largest index (and a fate mark) needs, never cut to "714…".
  const { gridColumns, gridMinWidth, roleWidth } = useMemo(() => {
    const digits = String(Math.max(0, (skeleton?.count ?? 1) - 1)).length;
    // In pixels, not ch: the header's smaller font would make its ch narrower than the rows'.
    // Room for a fork's ‹ 2/3 › beside the number, where the path forks.
    // A role the file spells long (Codex's `function_call_output`) is read whole, unless the user sized the column.
    const longest = maxOf((skeleton?.roles ?? []).map((r) => r.length), 0);
    const roleWidth = columnWidths.role !== DEFAULT_COLUMNS.role ? columnWidths.role : Math.min(180, Math.max(DEFAULT_COLUMNS.role, longest * 7 + 30));
    const fixed = [Math.max(56, digits * 8 + 40) + (skeleton?.forks ? 52 : 0), roleWidth, columnWidths.tokens];
    if (shows.time) fixed.push(columnWidths.time);
    if (shows.category) fixed.push(columnWidths.category);
    if (shows.id) fixed.push(columnWidths.messageId);
    const [index, role, ...rest] = fixed.map((w) => `${w}px`);
    // As wide as its columns at their least: a narrow window scrolls sideways, every row drawn the whole way.
    return { gridColumns: [index, role, 'minmax(140px, 1fr)', ...rest].join(' '), gridMinWidth: `${fixed.reduce((a, b) => a + b, 140)}px`, roleWidth };
  }, [skeleton?.count, skeleton?.forks, skeleton?.roles, shows, columnWidths]);
  const table = useTable({ features, columns, data, getRowId: (r) => String(r.index) });
  const { plan: ownPlan } = useWindowPlan();
  // While the turn scrubber is off its end: the plan of the history up to that turn; later messages not sent yet.
  const turnView = useApp((s) => s.turnView);
  const plan = turnView?.plan ?? ownPlan;
  const future = (i: number) => turnView !== undefined && i >= turnView.end;
  const planned = plan !== undefined && skeleton !== undefined && (turnView ? turnView.end <= skeleton.count : plan.fates.length === skeleton.count);
  const sortable: Record<string, SortKey> = { index: 'index', role: 'role', tokens: 'tokens', time: 'time' };

  // A message chosen elsewhere (a chart, the minimap, a search hit) is brought into view; rows already in view stay.
  const orderRef = useRef(order);
  orderRef.current = order;
  // Opened from the transcript: where the reader was there (its top message at the top, the selected one in sight).
  const place = useRef(((p) => (p && p.of === placeKey(useApp.getState().skeleton) ? p : undefined))(useApp.getState().readingPlace));
  const placedAt = useRef<number | undefined>(undefined);
  /** The row the table itself moved the selection to (a key, a click): scrolled to no further than it must be. */
  const stepped = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const at = place.current;
    const el = scrollRef.current;
    if (!at || order.length === 0 || !el) return;
    place.current = undefined;
    // One scroll to one offset worked out here: two scrollToIndex calls in a row raced (the virtualizer reads
    // its scroll offset from the scroll event, so the second call still saw the top of the list).
    const rows = virtualizer.measurementsCache;
    let offset = rows[nearestPosition(order, at.top)]?.start ?? 0;
    const s = useApp.getState().selected;
    const sel = s === undefined ? undefined : rows[order.indexOf(s)];
    if (at.selectedInView && sel) {
      if (sel.end > offset + el.clientHeight) offset = sel.end - el.clientHeight;
      else if (sel.start < offset) offset = sel.start;
    }
    virtualizer.scrollToOffset(offset);
    placedAt.current = s;
    if (!at.selectedInView || !sel) return;
    // The table's height settles after its first layout (the detail pane and the header's notes come in, seconds
    // later on a busy machine): the selected message kept in sight while it does, by the same rule, until the
    // reader scrolls, clicks or types, or for KEEP_MS.
    const done = () => {
      clearTimeout(stop);
      keep.disconnect();
      for (const type of ACTED) el.removeEventListener(type, done);
    };
    const keep = new ResizeObserver(() => {
      const top = el.scrollTop;
      if (sel.end > top + el.clientHeight) virtualizer.scrollToOffset(sel.end - el.clientHeight);
      else if (sel.start < top) virtualizer.scrollToOffset(sel.start);
    });
    keep.observe(el);
    const stop = setTimeout(done, KEEP_MS);
    for (const type of ACTED) el.addEventListener(type, done, { passive: true });
    return done;
  }, [order, virtualizer]);
  useEffect(() => {
    if (selected === undefined) return;
    // The selection the place was made with is where the place put it.
    if (placedAt.current === selected) {
      placedAt.current = undefined;
      return;
    }
    placedAt.current = undefined;
    const pos = orderRef.current.indexOf(selected);
    if (pos < 0) return;
    // A step in the table (↓, a click on a row) scrolls no more than it must.
    const step = stepped.current === selected;
    stepped.current = undefined;
    if (step) {
      virtualizer.scrollToIndex(pos, { align: 'auto' });
      return;
    }
    // A message chosen elsewhere (a search hit, a costly call, a chart, "go to") lands mid-view, with what leads up
    // to it above it, unless it is well inside the view already; and stays in sight while the table's height
    // settles (the detail pane and the header's notes coming in), until the reader acts or for KEEP_MS.
    const el = scrollRef.current;
    // Its place among the rows shown now (a filter cleared after a search hit opened puts it elsewhere).
    const at = () => orderRef.current.indexOf(selected);
    const inside = (p: number) => {
      const row = virtualizer.measurementsCache[p];
      return row !== undefined && el !== null && row.start >= el.scrollTop && row.end <= el.scrollTop + el.clientHeight - 2 * ROW_HEIGHT;
    };
    if (!inside(pos)) virtualizer.scrollToIndex(pos, { align: 'center' });
    if (!el) return;
    const keep = new ResizeObserver(() => {
      const p = at();
      if (p >= 0 && !inside(p)) virtualizer.scrollToIndex(p, { align: 'center' });
    });
    keep.observe(el);
    const done = () => {
      clearTimeout(stop);
      keep.disconnect();
      for (const type of ACTED) el.removeEventListener(type, done);
    };
    const stop = setTimeout(done, KEEP_MS);
    for (const type of ACTED) el.addEventListener(type, done, { passive: true });
    return done;
  }, [selected, virtualizer]);
  // Where the reader is, for the transcript when they go to it.
  useEffect(
    () =>
      reportPlace(() => {
        const el = scrollRef.current;
        const shown = virtualizer.getVirtualItems();
        if (!el || shown.length === 0) return undefined;
        const top = el.scrollTop;
        const first = shown.find((it) => it.end > top + 1) ?? shown[0];
        const s = useApp.getState().selected;
        const pos = s === undefined ? -1 : orderRef.current.indexOf(s);
        const sel = shown.find((it) => it.index === pos);
        return { top: orderRef.current[first.index], selectedInView: sel !== undefined && sel.end > top && sel.start < top + el.clientHeight };
      }),
    [virtualizer],
  );
  // When the filters change the rows around it (cleared after a search hit opened), the selected message stays
  // where the eye is: centred, with what comes before and after it. A sort keeps the count and the scroll.
  const shownOrder = useRef(order);
  useEffect(() => {
    if (shownOrder.current === order) return;
    const before = shownOrder.current;
    shownOrder.current = order;
    if (selected === undefined || before.length === order.length) return;
    const pos = order.indexOf(selected);
    if (pos >= 0) virtualizer.scrollToIndex(pos, { align: 'center' });
  }, [order, selected, virtualizer]);

  const moveTo = (pos: number) => {
    if (!order.length) return;
    const p = Math.max(0, Math.min(order.length - 1, pos));
    stepped.current = order[p];
    select(order[p]);
    virtualizer.scrollToIndex(p, { align: 'auto' });
  };
  /** The rows are the file's messages in its order (no sort, no filter): "the end" is the file's end. */
  const isFileOrder = () => order.length === skeleton?.count && (order.length === 0 || order[order.length - 1] === order.length - 1);
  /** Where the conversation ends: while a big file is read, or in a later part of a session read in parts, not on screen yet. */
  const toEnd = () => {
    const st = useApp.getState();
    const parted = partsAround(st);
    const later = !!parted && parted.at < parted.parts.length - 1;
    if (((st.provisional && st.opening) || later) && isFileOrder()) st.jumpTo('end');
    else moveTo(order.length - 1);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key === 'End') {
      e.preventDefault();
      return toEnd();
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return; // commands (move, undo, …) handle those
    const pos = selected === undefined ? -1 : order.indexOf(selected);
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 300) / ROW_HEIGHT) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(pos + 1),
      ArrowUp: () => moveTo(pos - 1),
      PageDown: () => moveTo(pos + page),
      PageUp: () => moveTo(pos - page),
      Home: () => moveTo(0),
      // While a big file is read, the end is where the file ends: gone to when it is read (said in the banner).
      End: toEnd,
      Enter: () => document.getElementById('detail')?.focus(),
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  };

  if (!skeleton) return null;
  return (
    <div className={`grid ${planned ? 'with-minimap' : ''}`} role="grid" aria-label="Messages" aria-rowcount={order.length} tabIndex={0} onKeyDown={onKeyDown} data-testid="message-grid" style={{ ['--grid-cols' as string]: gridColumns, ['--grid-min' as string]: gridMinWidth }}>
      <div className="grid-head" role="row" ref={headRef}>
        {table.getHeaderGroups()[0].headers.map((h) => {
          const key = sortable[h.column.id];
          const active = key && sort.key === key;
          return (
            <div key={h.id} role="columnheader" className={`cell col-${h.column.id}`} aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : undefined}>
              {key ? (
                <button className="sort" onClick={() => void setSort(key)} aria-label={`sort by ${h.column.id}`}>
                  <FlexRender header={h} />
                  {active ? (sort.desc ? ' ▾' : ' ▴') : ''}
                </button>
              ) : (
                <FlexRender header={h} />
              )}
              {isSized(h.column.id) && (
                <Splitter
                  className="col-splitter"
                  label={`Resize the ${h.column.id === 'messageId' ? 'id' : h.column.id} column (double-click: default width)`}
                  vertical
                  size={h.column.id === 'role' ? roleWidth : columnWidths[h.column.id]}
                  sign={1}
                  onResize={(w) => resizeColumn(h.column.id as ColumnId, w)}
                  onReset={() => resizeColumn(h.column.id as ColumnId, undefined)}
                  testid={`col-resize-${h.column.id}`}
                />
              )}
            </div>
          );
        })}
      </div>
      <div className="grid-main">
      <div
        className="grid-body"
        ref={scrollRef}
        data-testid="grid-body"
        // The rows scroll here: reachable by the keyboard too (axe: a scrollable region is focusable); the grid's keys still move the selection.
        role="rowgroup"
        tabIndex={0}
        // A narrow window scrolls the rows sideways: the header goes with them, its titles over their columns.
        onScroll={(e) => {
          if (headRef.current) headRef.current.scrollLeft = e.currentTarget.scrollLeft;
        }}
      >
        {order.length === 0 && <p className="empty">{skeleton && skeleton.count === 0 ? 'This conversation has no messages yet.' : search ? `No message contains “${search}”.` : 'No messages match the filters.'}</p>}
        {/* As wide as the columns: a narrow window scrolls sideways to the last ones instead of cutting them. */}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: 'var(--grid-min, 0)' }}>
          {table.getRowModel().rows.map((row, k) => {
            const item = items[k];
            const r = row.original;
            const fate = !plan ? undefined : future(r.index) ? 'future' : FATES[plan.fates[r.index]];
            const cut = plan?.cuts[r.index];
            return (
              <div
                key={row.id}
                role="row"
                aria-rowindex={item.index + 1}
                aria-selected={selected === r.index}
                aria-label={fate === 'future' ? `message ${r.index}, not sent yet at turn ${turnView!.turn}` : fate ? `message ${r.index}, ${fate}${cut ? ` (keeps the ${cut.keep === 'start' ? 'start' : 'end'})` : ''}` : undefined}
                className={`grid-row ${r.flags & FLAGS.meta ? 'meta' : ''} ${r.flags & FLAGS.sidechain ? 'sidechain' : ''} ${selected === r.index ? 'selected' : ''} ${marked.has(r.index) ? 'marked' : ''} ${dropAt === r.index ? 'drop-target' : ''} ${fate ? `fate-${fate}` : ''}`}
                data-testid="row"
                data-index={r.index}
                data-fate={fate}
                data-marked={marked.has(r.index) || undefined}
                draggable={sort.key === 'index' && !sort.desc}
                onDragStart={(e) => e.dataTransfer.setData('text/x-message-index', String(r.index))}
                onDragOver={(e) => {
                  e.preventDefault();
                  setDropAt(r.index);
                }}
                onDragLeave={() => setDropAt(undefined)}
                onDrop={(e) => {
                  e.preventDefault();
                  setDropAt(undefined);
                  const from = Number(e.dataTransfer.getData('text/x-message-index'));
                  const moving = marked.size > 0 && marked.has(from) ? [...marked] : [from];
                  // Dropped onto a row: the moved messages go before it.
                  const to = r.index - moving.filter((i) => i < r.index).length;
                  if (Number.isInteger(from) && from !== r.index) void moveMessages(useApp.getState(), moving, to);
                }}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onClick={(e) => {
                  if (e.ctrlKey || e.metaKey || e.shiftKey) toggleMark(r.index, e.shiftKey);
                  else {
                    if (marked.size) useApp.setState({ marked: new Set() });
                    stepped.current = r.index;
                    select(r.index);
                  }
                }}
                // A double click edits the message, as the E key does.
                onDoubleClick={() => {
                  stepped.current = r.index;
                  select(r.index);
                  runCommand('edit');
                }}
              >
                {row.getAllCells().map((cell) => (
                  <div key={cell.id} role="gridcell" className={`cell col-${cell.column.id}`}>
                    {cell.column.id === 'index' && fate && fate !== 'kept' && <span className="fate-mark" aria-hidden="true">{FATE_MARK[fate]} </span>}
                    <FlexRender cell={cell} />
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
      {planned && plan && (
        // The whole conversation beside the scrollbar, by fate under the window panel's plan: a click goes there.
        <FateStrip
          inGrid
          fates={plan.fates}
          n={skeleton.count}
          vertical
          at={selected}
          onSelect={(i) => select(i)}
          label={turnView ? `The conversation by fate at turn ${turnView.turn} (later messages not sent yet; click to go to a message)` : 'The conversation by fate under the window plan (click to go to a message)'}
          testid="minimap"
        />
      )}
      </div>
    </div>
  );
}
