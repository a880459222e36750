import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FLAGS, type Skeleton } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { PAGE_SIZE, partsAround } from '../../store/conversation.js';
import { useApp, useAppPick } from '../../store/index.js';
import { placeKey, reportPlace, viewAt, type TranscriptMessage } from '../../store/transcript.js';
import { FATES } from '../../../../src/core/window/types.js';
import type { ModelPrice } from '../../../../src/core/pricing/prices.js';
import { formatUsd } from '../../../../src/core/usage.js';
import { RoleChip } from '../RoleChip.js';
import { formatNumber } from '../roles.js';
import { Highlight } from '../highlight.js';
import { useWindowPlan } from '../window/useWindowPlan.js';
import { requestOverhead } from '../../store/window.js';
import { FateStrip } from '../window/FateStrip.js';
import { FoldChoices, FoldContext, useFolds, type Folds } from './folds.js';
import { turnsOf, nextUnit, unitStart, type Turns } from './turns.js';
import { partStarts, prefixSums, servedEstimate, short, turnFigures, type FigureInputs, type TurnFigures } from './figures.js';
import { useTurns } from '../turns/use-turns.js';
import { foldKeys, found, TranscriptParts, type PartsContext } from './TranscriptParts.js';
import { SubAgentRun, type SubAgent } from './SubAgentRun.js';
import { Markdown } from './Markdown.js';
import { useScrollHolds } from './scroll-holds.js';

const NO_FOLDS = new FoldChoices();
const FATE_MARK: Record<string, string> = { kept: '', dropped: '⨯', cut: '✂', summarised: 'Σ', future: '…' };
/** Room the number column and the margin take beside a message's text (for the first guess of its height). */
const GUTTERS = 44 + 140 + 40;
const LINE = 19;

/** A system prompt longer than this (characters) is shown folded: about a dozen lines. */
const LONG_PROMPT = 1200;
const promptLength = (parts: readonly TranscriptMessage['parts'][number][]): number => parts.reduce((n, x) => n + ('text' in x ? x.text.length : 0), 0);

/** How far a compaction's summary may follow its boundary (Claude Code writes it next; a hook line or two may come between). */
const SUMMARY_WITHIN = 4;
function summaryAfter(skeleton: Skeleton, at: number): number | undefined {
  for (let i = at + 1; i < Math.min(skeleton.count, at + 1 + SUMMARY_WITHIN); i++) {
    if (skeleton.flags[i] & FLAGS.summary) return i;
    if (skeleton.flags[i] & FLAGS.compaction) return undefined;
  }
  return undefined;
}

/** The price rows the user set in place of the dated table's (what the token summary prices with too). */
function usePrices(): Record<string, ModelPrice> {
  const [prices, setPrices] = useState<Record<string, ModelPrice>>({});
  useEffect(() => {
    request('settings:get', {}).then(
      (s) => setPrices(s.prices ?? {}),
      () => {},
    );
  }, []);
  return prices;
}

interface ItemProps {
  index: number;
  count: number;
  view: TranscriptMessage | undefined;
  preview: string | undefined;
  role: string;
  normalRole: string;
  flags: number;
  /** The turn it is in (-1: none), its number among turns, and whether it begins it. */
  turn: number;
  starts: boolean;
  figures: TurnFigures | undefined;
  tokens: number | undefined;
  reasoningTokens: number | undefined;
  selected: boolean;
  matched: boolean;
  fate: string | undefined;
  query: string;
  ctx: Omit<PartsContext, 'at' | 'query' | 'reasoningTokens'>;
  agents: readonly SubAgent[] | undefined;
  compaction: { summary?: number; summaryTokens?: number } | undefined;
  onSelect(i: number): void;
}

const time = (ts: string | undefined) => {
  const t = ts === undefined ? NaN : Date.parse(ts);
  if (!Number.isFinite(t)) return undefined;
  const d = new Date(t);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};

/** The margin: what the turn cost (reported, or estimated and said so), or what a message alone counts. */
function Margin({ figures, tokens, starts, turn, compaction }: { figures: TurnFigures | undefined; tokens: number | undefined; starts: boolean; turn: number; compaction: boolean }) {
  if ((turn >= 0 && !starts) || compaction) return <aside className="tx-margin" />;
  if (figures) {
    const est = figures.kind === 'estimated' ? '≈' : '';
    return (
      <aside className={`tx-margin tx-fig ${figures.kind}`} title={figures.title} data-testid="tx-figures" data-kind={figures.kind}>
        <span className="tx-io">
          <span>{figures.input !== undefined ? `${est}${short(figures.input)}` : '–'} in ·</span> <span>{figures.output !== undefined ? `${est}${short(figures.output)}` : '–'} out</span>
        </span>
        {figures.usd !== undefined && <span className="tx-usd">{`${est}${figures.atLeast ? '≥' : ''}${formatUsd(figures.usd)}`}</span>}
        <span className="tx-kind">{figures.kind === 'reported' ? 'reported' : 'estimated'}</span>
      </aside>
    );
  }
  return (
    <aside className="tx-margin tx-fig" data-testid="tx-tokens" title={tokens === undefined ? undefined : `${formatNumber(tokens)} tokens, counted here`}>
      {tokens !== undefined && <span>{short(tokens)} tok</span>}
    </aside>
  );
}

const TranscriptItem = memo(function TranscriptItem(p: ItemProps) {
  const { index: i, view, flags } = p;
  const meta = (flags & FLAGS.meta) !== 0;
  const compaction = (flags & FLAGS.compaction) !== 0;
  const summary = (flags & FLAGS.summary) !== 0;
  const folds = useFolds();
  const head = p.turn < 0 || p.starts;
  const label = [`message ${i}`, p.role, p.turn >= 0 ? `turn ${p.turn + 1}` : undefined, p.fate && p.fate !== 'kept' ? (p.fate === 'future' ? 'not sent yet' : p.fate) : undefined, p.matched ? 'a search match' : undefined].filter(Boolean).join(', ');
  const ctx: PartsContext = { ...p.ctx, at: i, query: p.query, reasoningTokens: p.reasoningTokens };
  let body;
  if (compaction) {
    const c = view?.compaction;
    body = (
      <div className="tx-band" data-testid="tx-compaction" role="note">
        <strong>● Compacted</strong>
        {c?.trigger && <span> · {c.trigger === 'auto' ? 'automatically, the window being full' : c.trigger === 'manual' ? 'by /compact' : c.trigger}</span>}
        <span data-testid="tx-compaction-before"> · before: {c?.preTokens !== undefined ? `${formatNumber(c.preTokens)} tokens (as the tool measured them)` : view ? 'not recorded' : '…'}</span>
        <span data-testid="tx-compaction-after">
          {' '}
          → after: {c?.postTokens !== undefined ? `${formatNumber(c.postTokens)} tokens (as the tool measured them)` : p.compaction?.summary !== undefined ? `the summary, ${p.compaction.summaryTokens !== undefined ? `${formatNumber(p.compaction.summaryTokens)} tokens counted here` : 'message'} ` : view && view.parts.length > 0 ? `the summary below${p.tokens !== undefined ? `, ${formatNumber(p.tokens)} tokens counted here` : ''}` : 'not recorded'}
        </span>
        {p.compaction?.summary !== undefined && c?.postTokens !== undefined && <span> · the summary </span>}
        {p.compaction?.summary !== undefined && (
          <button className="link small" onClick={(e) => (e.stopPropagation(), p.onSelect(p.compaction!.summary!))} data-testid="tx-compaction-summary">
            #{p.compaction.summary}
          </button>
        )}
        {view && view.parts.length > 0 && <TranscriptParts parts={view.parts} ctx={ctx} tool={false} />}
        {!view && p.preview && <span className="muted"> {p.preview}</span>}
      </div>
    );
  } else if (!view) {
    body = <p className="tx-preview">{p.preview === undefined ? <span className="loading">…</span> : p.preview === '' ? <span className="muted">(empty)</span> : <Highlight text={p.preview} query={p.query} />}</p>;
  } else if (summary) {
    const key = `${i}:summary`;
    const text = view.parts.map((x) => ('text' in x ? x.text : '')).join('\n');
    const open = folds.isOpen(key, false);
    body = (
      <div className="tx-card tx-summary" data-testid="tx-summary">
        <button className="tx-fold-head" aria-expanded={open} onClick={() => folds.toggle(key, false)} data-testid="tx-summary-fold">
          <span className="tx-caret" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <span aria-hidden="true">Σ</span> <strong>The summary the compaction wrote</strong>
          <span className="muted small"> · {p.tokens !== undefined ? `${formatNumber(p.tokens)} tokens` : `${formatNumber(text.length)} characters`}: what the model was sent in place of the history before it</span>
        </button>
        {open && <Markdown text={text} query={p.query} />}
      </div>
    );
  } else if (p.normalRole === 'system' && !meta && promptLength(view.parts) > LONG_PROMPT) {
    // A long system or developer prompt (Codex's, Copilot's: pages of instructions) folded, as a summary is:
    // the conversation starts on the screen, not a page of it further down.
    const key = `${i}:prompt`;
    const text = view.parts.map((x) => ('text' in x ? x.text : '')).join('\n');
    const byDefault = found(text, p.query);
    const open = folds.isOpen(key, byDefault);
    const first = text.trim().split('\n')[0]?.slice(0, 160) ?? '';
    body = (
      <div className="tx-card tx-system" data-testid="tx-system">
        <button className="tx-fold-head" aria-expanded={open} onClick={(e) => (e.stopPropagation(), folds.toggle(key, byDefault))} data-testid="tx-system-fold">
          <span className="tx-caret" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <strong>Instructions</strong>
          <span className="muted small"> · {p.tokens !== undefined ? `${formatNumber(p.tokens)} tokens` : `${formatNumber(text.length)} characters`}</span>
          {!open && <span className="tx-headline">{<Highlight text={first} query={p.query} />}</span>}
        </button>
        {open && <TranscriptParts parts={view.parts} ctx={ctx} tool={false} empty={view.category} />}
      </div>
    );
  } else if (meta) {
    const text = view.parts.map((x) => ('text' in x ? x.text : '')).join('\n').trim();
    body = (
      <p className="tx-meta" title="Written by the tool, not by the user or the model">
        {text === '' ? <span className="muted">(empty)</span> : <Highlight text={text.length > 600 ? `${text.slice(0, 600)}…` : text} query={p.query} />}
      </p>
    );
  } else {
    body = (
      <>
        <TranscriptParts parts={view.parts} ctx={ctx} tool={p.normalRole === 'tool'} empty={view.category} />
        {view.cut !== undefined && <p className="muted small" data-testid="tx-cut">Shown up to 32 KB of {formatNumber(view.cut)} characters: the detail pane (Enter in the table) has all of it.</p>}
      </>
    );
  }
  return (
    <article
      className={`tx-item role-${p.normalRole} ${head ? 'unit-start' : 'in-turn'} ${p.turn >= 0 ? 'in-call' : ''} ${p.selected ? 'selected' : ''} ${p.matched ? 'matched' : ''} ${p.fate ? `fate-${p.fate}` : ''} ${flags & FLAGS.sidechain ? 'sidechain' : ''} ${meta ? 'meta' : ''} ${compaction ? 'compaction' : ''}`}
      data-testid="tx-message"
      data-index={i}
      data-turn={p.turn}
      data-fate={p.fate}
      aria-label={label}
      aria-posinset={i + 1}
      aria-setsize={p.count}
      aria-current={p.selected || undefined}
      tabIndex={-1}
      onClick={() => p.onSelect(i)}
    >
      <div className="tx-num" aria-hidden="true">
        {p.fate && FATE_MARK[p.fate] ? <span className="fate-mark">{FATE_MARK[p.fate]} </span> : null}#{i}
        {p.matched && <span className="tx-match-dot">●</span>}
      </div>
      <div className="tx-body">
        {head && !compaction && (
          <header className="tx-head">
            <RoleChip role={p.role} normal={p.normalRole} />
            {p.turn >= 0 && <span className="tx-turn">turn {formatNumber(p.turn + 1)}</span>}
            {flags & FLAGS.sidechain ? <span className="badge">sub-agent</span> : null}
            {meta && <span className="badge">meta</span>}
            {view?.model && <span className="muted mono small">{view.model}</span>}
            {time(view?.timestamp) && <span className="muted small" title={view?.timestamp}>{time(view?.timestamp)}</span>}
            {p.fate && p.fate !== 'kept' && <span className={`tx-fate fate-${p.fate}`}>{p.fate === 'future' ? 'not sent yet' : p.fate}</span>}
          </header>
        )}
        {body}
        {p.agents?.map((a, k) => <SubAgentRun key={`${a.path}:${a.conversation}`} agent={a} foldKey={`${i}:sub:${k}`} query={p.query} />)}
      </div>
      <Margin figures={p.figures} tokens={p.tokens} starts={p.starts} turn={p.turn} compaction={compaction} />
    </article>
  );
});

/** A first guess of a message's height, before it is drawn and measured. */
function estimateOf(skeleton: Skeleton, i: number, perLine: number, head: boolean): number {
  const f = skeleton.flags[i];
  const top = head ? 30 : 6;
  if (f & FLAGS.compaction) return 52;
  if (f & (FLAGS.meta | FLAGS.summary)) return top + 28;
  if (f & FLAGS.toolResult && !(f & FLAGS.toolCall)) return top + 32;
  const text = Math.ceil(skeleton.lengths[i] / perLine) * LINE;
  return top + Math.min(text, 1600) + (f & FLAGS.toolCall ? 90 : 0) + (f & FLAGS.reasoning ? 28 : 0) + 10;
}

/**
 * The open conversation as a transcript: turns as the agent had them (one API call, its parallel calls and their
 * results), Markdown rendered, calls as cards, results, reasoning and sub-agents folded, compactions as a band,
 * what each turn cost in the margin. Virtualized like the table, every message measured as drawn.
 */
export function Transcript() {
  const { skeleton, pages, counts, selected, select, search, searchMatches, views, ensureViews, ensureRows, links, openConversation, readingPlace, goToMatch, generation, calls, ensureCalls, openPath, openConversationIndex } = useAppPick(
    'skeleton', 'pages', 'counts', 'selected', 'select', 'search', 'searchMatches', 'views', 'ensureViews', 'ensureRows', 'links', 'openConversation', 'readingPlace', 'goToMatch', 'generation', 'calls', 'ensureCalls', 'openPath', 'openConversationIndex',
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => el.clientWidth > 0 && setWidth(el.clientWidth);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);
  // The turns are the service's (one model call each); asked again as the conversation changes.
  useEffect(() => ensureCalls(), [skeleton, ensureCalls]);
  const ownCalls = calls && skeleton && calls.of === `${openPath}\0${openConversationIndex}` && calls.version === skeleton.version ? calls : undefined;
  const turns: Turns = useMemo(() => (skeleton ? turnsOf(skeleton, ownCalls) : { turnOf: new Int32Array(0), first: [], last: [] }), [skeleton, ownCalls]);

  // What the reader unfolded, per conversation shown.
  const shownKey = skeleton ? `${skeleton.path}\0${skeleton.conversation}` : '';
  const [foldState, setFoldState] = useState(() => ({ of: shownKey, folds: new FoldChoices() }));
  const folds = foldState.of === shownKey ? foldState.folds : NO_FOLDS;
  const setFolds = useMemo(
    () => (change: (f: FoldChoices) => FoldChoices) => setFoldState((s) => ({ of: shownKey, folds: change(s.of === shownKey ? s.folds : NO_FOLDS) })),
    [shownKey],
  );
  const foldApi: Folds = useMemo(() => ({ isOpen: (k, d) => folds.isOpen(k, d), toggle: (k, d) => setFolds((f) => f.with(k, !f.isOpen(k, d))) }), [folds, setFolds]);

  const mine = counts && skeleton && counts.path === skeleton.path && counts.conversation === skeleton.conversation && counts.tokens.length === skeleton.count ? counts : undefined;
  const prices = usePrices();
  const figureInputs: FigureInputs | undefined = useMemo(() => {
    if (!skeleton) return undefined;
    return { skeleton, turns, tokens: mine?.tokens, prefix: mine ? prefixSums(mine.tokens) : undefined, parts: partStarts(skeleton), countedFor: mine?.model, encoding: mine?.encoding, prices, overhead: requestOverhead(skeleton) };
  }, [skeleton, turns, mine, prices]);
  // The service's turns (the strip's): an estimated turn reads as the strip says it.
  const served = useTurns(skeleton);
  const servedAt = useMemo(() => new Map((served?.turns ?? []).map((t) => [t.first, t])), [served]);
  // Each turn's figures once per inputs (the items keep the same object while they scroll).
  const figureCache = useMemo(() => new Map<number, TurnFigures | undefined>(), [figureInputs, servedAt]);
  const figuresOf = (t: number) => {
    if (!figureInputs || t < 0) return undefined;
    if (!figureCache.has(t)) figureCache.set(t, servedEstimate(turnFigures(figureInputs, t), servedAt.get(turns.first[t])));
    return figureCache.get(t);
  };

  // The sub-agents each Task call ran: a thread of this file, or a file of its own (Claude Code 2.1).
  const agentsAt = useMemo(() => {
    const at = new Map<number, SubAgent[]>();
    if (!skeleton) return at;
    const add = (i: number, a: SubAgent) => at.set(i, [...(at.get(i) ?? []), a]);
    const main = skeleton.threads?.find((t) => t.conversation === skeleton.conversation)?.thread === 'main';
    const totals = mine?.threadTotals;
    if (main) for (const t of skeleton.threads ?? []) if (t.task !== undefined) add(t.task, { path: skeleton.path, conversation: t.conversation, title: t.title.replace(/^Sub-agent\s*/, ''), messages: t.messages, tokens: totals?.[t.conversation], open: () => void openConversation(skeleton.path, t.conversation) });
    if (links?.path === skeleton.path) for (const a of links.subagents) if (a.task !== undefined) add(a.task, { path: a.path, conversation: 0, title: `${a.title ?? a.agentId}${a.agentType ? ` (${a.agentType})` : ''}`, bytes: a.bytes, open: () => void openConversation(a.path, 0) });
    return at;
  }, [skeleton, links, mine, openConversation]);

  const { plan: ownPlan } = useWindowPlan();
  const turnView = useApp((s) => s.turnView);
  const plan = turnView?.plan ?? ownPlan;
  const planned = plan !== undefined && skeleton !== undefined && (turnView ? turnView.end <= skeleton.count : plan.fates.length === skeleton.count);

  const perLine = Math.max(30, (width - GUTTERS) / 7);
  const virtualizer = useVirtualizer({
    count: skeleton?.count ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (skeleton ? estimateOf(skeleton, i, perLine, turns.turnOf[i] < 0 || turns.first[turns.turnOf[i]] === i) : 40),
    overscan: 4,
  });
  const items = virtualizer.getVirtualItems();
  // A change of the conversation (an edit, another path) places every message anew.
  useEffect(() => {
    virtualizer.measure();
  }, [skeleton, virtualizer]);

  useEffect(() => {
    if (!items.length) return;
    const a = items[0].index;
    const b = items[items.length - 1].index + 1;
    ensureViews(a, b);
    // The rows' one-line previews show meanwhile (the table's pages: often there already).
    for (let page = Math.floor(a / PAGE_SIZE); page * PAGE_SIZE < b; page++) ensureRows(page * PAGE_SIZE, page * PAGE_SIZE + 1);
  }, [items, ensureViews, ensureRows, generation, pages]);

  // Where the reader is, for the table when they go back to it.
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  useEffect(
    () =>
      reportPlace(() => {
        const el = scrollRef.current;
        const shown = virtualizer.getVirtualItems();
        if (!el || shown.length === 0) return undefined;
        // As seen on the screen, not in the virtualizer's measurements (a message measured a frame late is off by its growth).
        const box = el.getBoundingClientRect();
        const slots = [...el.querySelectorAll<HTMLElement>('.tx-slot')].map((node) => ({ index: Number(node.dataset.index), r: node.getBoundingClientRect() }));
        const seen = slots.filter(({ r }) => r.bottom > box.top + 1 && r.top < box.bottom - 1).sort((a, b) => a.r.top - b.r.top);
        const top = seen[0]?.index ?? shown[0].index;
        const s = selectedRef.current;
        return { top, selectedInView: seen.some((x) => x.index === s) };
      }),
    [virtualizer],
  );

  const { holdAtTop, reveal, keepInView } = useScrollHolds(scrollRef, virtualizer);

  // Opened where the reader was in the table: its top message at the top; the selected one kept in sight.
  const placed = useRef(false);
  useLayoutEffect(() => {
    if (placed.current || !skeleton || skeleton.count === 0) return;
    placed.current = true;
    // A place left in another conversation is none here.
    const place = readingPlace && readingPlace.of === placeKey(skeleton) ? readingPlace : undefined;
    if (place && place.top < skeleton.count) {
      virtualizer.scrollToIndex(place.top, { align: 'start' });
      if (place.selectedInView && selected !== undefined) keepInView(selected);
    } else if (selected !== undefined) {
      virtualizer.scrollToIndex(selected, { align: 'start' });
      holdAtTop(selected);
    }
  }, [skeleton]);
  // A message chosen elsewhere (a search match, "go to", the minimap, a link) is brought into view.
  const lastSelected = useRef(selected);
  useEffect(() => {
    if (selected === lastSelected.current) return;
    lastSelected.current = selected;
    if (selected !== undefined && skeleton && selected < skeleton.count) reveal(selected);
  }, [selected]);

  const ctx = useMemo((): ItemProps['ctx'] => {
    const resultAt = new Map<string, number>();
    const callAt = new Map<string, number>();
    if (skeleton) {
      skeleton.toolResults.at.forEach((at, k) => !resultAt.has(skeleton.toolResults.values[k]) && resultAt.set(skeleton.toolResults.values[k], at));
      skeleton.toolCalls.at.forEach((at, k) => skeleton.toolCalls.values[k].forEach((id) => callAt.set(id, at)));
    }
    return {
      resultOf: (id) => (id ? resultAt.get(id) : undefined),
      callOf: (id) => (id ? callAt.get(id) : undefined),
      callName: (id) => {
        const at = id ? callAt.get(id) : undefined;
        const v = at === undefined ? undefined : viewAt(useApp.getState().views, at);
        const call = v?.parts.find((p) => p.kind === 'tool-call' && p.id === id);
        return call && call.kind === 'tool-call' ? call.name : undefined;
      },
      onGo: (i) => select(i),
    };
    // A result's call name comes from the views: asked again as they come.
  }, [skeleton, select, views]);

  const onSelect = useMemo(() => (i: number) => select(i), [select]);

  if (!skeleton) return null;
  const count = skeleton.count;
  const unitsFrom = (i: number, step: 1 | -1) => nextUnit(turns, i, step, count);
  // While a big file is read, or in a session read in parts before its last, the end is not on screen yet.
  const toEnd = () => {
    const st = useApp.getState();
    const parted = partsAround(st);
    if ((st.provisional && st.opening) || (parted && parted.at < parted.parts.length - 1)) st.jumpTo('end');
    else select(count - 1);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key === 'End') {
      e.preventDefault();
      return toEnd();
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const at = selected ?? -1;
    const page = () => {
      const el = scrollRef.current;
      if (!el) return;
      const delta = Math.max(40, el.clientHeight - 60) * (e.key === 'PageDown' ? 1 : -1);
      el.scrollTop += delta;
      requestAnimationFrame(() => {
        const top = el.scrollTop;
        const first = virtualizer.getVirtualItems().find((it) => it.start >= top - 1);
        if (first) select(unitStart(turns, first.index));
      });
    };
    const keys: Record<string, () => void> = {
      // ↓ and ↑ go from turn to turn (a call with its results is one); with Shift, from message to message.
      ArrowDown: () => select(at < 0 ? 0 : e.shiftKey ? Math.min(count - 1, at + 1) : unitsFrom(at, 1)),
      ArrowUp: () => select(at < 0 ? 0 : e.shiftKey ? Math.max(0, at - 1) : unitsFrom(at, -1)),
      Home: () => select(0),
      End: toEnd,
      PageDown: page,
      PageUp: page,
      Enter: () => {
        if (at < 0) return;
        if (folds.anyOpen(at)) setFolds((f) => f.closing(at));
        else {
          const v = viewAt(useApp.getState().views, at);
          const keys = [...(v ? foldKeys(v.parts, at) : []), `${at}:summary`, ...(agentsAt.get(at) ?? []).map((_, k2) => `${at}:sub:${k2}`)];
          setFolds((f) => keys.reduce((next, k) => next.with(k, true), f));
        }
      },
    };
    if (e.key === 'Escape' && at >= 0 && folds.anyOpen(at)) {
      // What is open in the message closes first; the next Esc is the window's.
      e.preventDefault();
      e.stopPropagation();
      setFolds((f) => f.closing(at));
      return;
    }
    if ((e.key === 'n' || e.key === 'N') && searchMatches && searchMatches.size > 0) {
      // The next match (N: the one before); the N of "add a message" is the table's.
      e.preventDefault();
      e.stopPropagation();
      goToMatch(e.shiftKey ? -1 : 1);
      return;
    }
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  };

  return (
    <FoldContext.Provider value={foldApi}>
      <div className="transcript-wrap">
        <div className="transcript" ref={scrollRef} role="feed" aria-label="Transcript" aria-busy={items.some((it) => !viewAt(views, it.index)) || undefined} tabIndex={0} onKeyDown={onKeyDown} data-testid="transcript">
          {count === 0 && <p className="empty">This conversation has no messages yet.</p>}
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((it) => {
              const i = it.index;
              const row = pages.get(Math.floor(i / PAGE_SIZE))?.[i % PAGE_SIZE];
              const t = turns.turnOf[i];
              const fate = !planned || !plan ? undefined : turnView && i >= turnView.end ? 'future' : FATES[plan.fates[i]];
              const summary = skeleton.flags[i] & FLAGS.compaction ? summaryAfter(skeleton, i) : undefined;
              return (
                <div key={it.key} ref={virtualizer.measureElement} data-index={i} className="tx-slot" style={{ transform: `translateY(${it.start}px)` }}>
                  <TranscriptItem
                    index={i}
                    count={count}
                    view={viewAt(views, i)}
                    preview={row?.index === i ? row.preview : undefined}
                    role={skeleton.roles[skeleton.roleOf[i]]}
                    normalRole={skeleton.normalRoles[skeleton.roleOf[i]]}
                    flags={skeleton.flags[i]}
                    turn={t}
                    starts={t >= 0 && turns.first[t] === i}
                    figures={t >= 0 ? figuresOf(t) : undefined}
                    tokens={mine?.tokens[i]}
                    reasoningTokens={mine?.reasoningTokens?.[i] || undefined}
                    selected={selected === i}
                    matched={searchMatches?.has(i) ?? false}
                    fate={fate}
                    query={search}
                    ctx={ctx}
                    agents={agentsAt.get(i)}
                    compaction={skeleton.flags[i] & FLAGS.compaction ? { summary, summaryTokens: summary !== undefined ? mine?.tokens[summary] : undefined } : undefined}
                    onSelect={onSelect}
                  />
                </div>
              );
            })}
          </div>
        </div>
        {planned && plan && (
          <FateStrip
            fates={plan.fates}
            n={count}
            vertical
            at={selected}
            onSelect={(i) => select(i)}
            label={turnView ? `The conversation by fate at turn ${turnView.turn} (later messages not sent yet; click to go to a message)` : 'The conversation by fate under the window plan (click to go to a message)'}
            testid="minimap"
          />
        )}
      </div>
    </FoldContext.Provider>
  );
}
