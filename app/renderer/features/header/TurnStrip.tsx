import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Skeleton, TurnFiguresData } from '../../../shared/contract.js';
import { useApp, useAppPick } from '../../store/index.js';
import { formatUsd } from '../../../../src/core/usage.js';
import { maxOf } from '../../../../src/core/util/numbers.js';
import { formatNumber } from '../roles.js';
import { Popover } from './Popover.js';
import { partStart } from './part-start.js';
import { useTurns } from '../turns/use-turns.js';

/** Bars the strip draws at most: past it, a bar stands for a run of turns (the costliest of them). */
const MAX_BARS = 160;
/** Turns the "by cost" list names. */
const LIST = 50;

/** A turn's weight on the strip: its cost where every turn has one, else its tokens (sent and written). */
const weightOf = (t: TurnFiguresData, byCost: boolean) => (byCost ? (t.usd ?? 0) : (t.input ?? 0) + (t.output ?? 0));

/** A turn in words: "turn 3 (#12): 44,218 in (42,880 cached) · 410 out · $0.03", "≈" where estimated. */
export function turnLabel(t: TurnFiguresData, k: number, outputOnly = false): string {
  const e = t.estimated ? '≈' : '';
  const parts = [
    t.input === undefined ? undefined : `${e}${formatNumber(t.input)} in${t.cacheRead ? ` (${formatNumber(t.cacheRead)} read from the cache)` : ''}${t.cacheWrite ? ` (${formatNumber(t.cacheWrite)} written to ${t.cacheRead ? 'it' : 'the cache'})` : ''}`,
    t.output === undefined ? undefined : `${e}${formatNumber(t.output)} out`,
    t.usd === undefined ? undefined : `${e}${formatUsd(t.usd)}`,
  ].filter(Boolean);
  const why = t.estimated ? ' — estimated, the file reports no usage for it' : outputOnly && t.input === undefined ? " — its output alone: the file records each call's output, its input only in the run's total" : '';
  return `Turn ${formatNumber(k + 1)} (#${formatNumber(t.first)}): ${parts.length ? parts.join(' · ') : 'no figures'}${why}`;
}

/** Runs of turns, one per bar: each with the costliest turn of the run, which a click goes to. */
export function barsOf(turns: readonly TurnFiguresData[], byCost: boolean, max = MAX_BARS): number[] {
  const size = Math.max(1, Math.ceil(turns.length / max));
  const bars: number[] = [];
  for (let k = 0; k < turns.length; k += size) {
    let best = k;
    for (let j = k + 1; j < Math.min(turns.length, k + size); j++) if (weightOf(turns[j], byCost) > weightOf(turns[best], byCost)) best = j;
    bars.push(best);
  }
  return bars;
}

/**
 * Each turn at a glance: a bar per API call, as tall as what it cost (its tokens where no price is known), its
 * cached input, the rest of its input and its output stacked; estimated turns hatched. A click selects the turn's
 * first row; the list beside it orders the turns by cost.
 */
export function TurnStrip({ skeleton }: { skeleton: Skeleton }) {
  const answer = useTurns(skeleton);
  const listedUsd = useApp((s) => s.sessionsAnswer?.sessions.find((x) => x.path === skeleton.path && x.kind === 'session' && x.conversation === skeleton.conversation)?.costUsd);
  const turns = answer?.turns;
  const { selected, select } = useAppPick('selected', 'select');
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const byCost = !!turns && turns.length > 0 && turns.every((t) => t.usd !== undefined);
  const bars = useMemo(() => (turns ? barsOf(turns, byCost) : []), [turns, byCost]);
  if (!turns || turns.length < 2) return null;
  const top = maxOf(turns.map((t) => weightOf(t, byCost)), Number.MIN_VALUE);
  const current = selected === undefined ? -1 : turns.findIndex((t) => t.first <= selected && selected <= t.last);
  // A bar stands for a run of turns of one size (see barsOf): the selected row's is found by division.
  const currentBar = current < 0 ? -1 : Math.floor(current / Math.max(1, Math.ceil(turns.length / MAX_BARS)));
  const focusBar = currentBar >= 0 ? currentBar : 0;
  // Where the file reports its runs' totals beside the calls (which record their output alone), the session's cost is theirs.
  const usd = answer?.sessionUsd ?? turns.reduce((n, t) => n + (t.usd ?? 0), 0);
  const fromRuns = answer?.sessionUsd !== undefined;
  const fromTotals = fromRuns ? ' (the runs\' totals the file reports: each call records its output alone)' : '';
  const estimated = turns.some((t) => t.estimated);
  // What the file reports and what is estimated here, apart where a session has both (an interrupted call, say):
  // the reported part is the figure the session list, Usage and the CLI give.
  const estimatedUsd = turns.reduce((n, t) => n + (t.estimated ? (t.usd ?? 0) : 0), 0);
  const reportedUsd = usd - estimatedUsd;
  const mixed = !fromRuns && estimated && estimatedUsd > 0 && turns.some((t) => !t.estimated && t.usd !== undefined);
  const usdText = mixed ? `${formatUsd(reportedUsd)} + ≈${formatUsd(estimatedUsd)}` : `${estimated ? '≈' : ''}${formatUsd(usd)}`;
  const usdSaid = mixed ? `${formatUsd(reportedUsd)} reported and ≈${formatUsd(estimatedUsd)} estimated for the turns the file reports no usage of, at list prices` : `${usdText} at list prices${fromTotals}`;
  // Only what the model is sent now is shown: its turns are not the session's (the session list's cost is).
  const since = !skeleton.whole && (skeleton.earlier ?? 0) > 0 ? ` since ${partStart(skeleton).since}` : '';
  // What the whole session cost (as the session list says it), beside the turns since its last compaction.
  const whole = since && listedUsd !== undefined && listedUsd > 0 ? listedUsd : undefined;
  // Priced turns by what they cost, then those of no list price by their tokens (a dollar and a token do not compare).
  const priced = turns.some((t) => t.usd !== undefined);
  const ranked = turns
    .map((t, k) => k)
    .sort((a, b) => {
      const [x, y] = [turns[a], turns[b]];
      if (priced && (x.usd === undefined) !== (y.usd === undefined)) return x.usd === undefined ? 1 : -1;
      const by = priced && x.usd !== undefined;
      return weightOf(y, by) - weightOf(x, by) || a - b;
    })
    .slice(0, LIST);
  const go = (k: number) => select(turns[k].first);
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight' && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const items = [...(box.current?.querySelectorAll<HTMLButtonElement>('.turn-bar') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? items.length - 1 : Math.max(0, Math.min(items.length - 1, at + (e.key === 'ArrowLeft' ? -1 : 1)));
    items[next]?.focus();
  };
  return (
    <div className="turn-strip" data-testid="turn-strip" data-turns={turns.length}>
      <Popover
        label="Turns by cost"
        testid="turns-by-cost"
        open={open}
        onOpen={setOpen}
        title={`${formatNumber(turns.length)} turns (API calls)${since ? ` since ${partStart(skeleton).last}` : ''}${usd > 0 ? `, ${usdSaid}` : ''}: the costliest first.${since ? ` The whole session (“+${formatNumber(skeleton.earlier ?? 0)} before ${partStart(skeleton).since}”)${whole !== undefined ? ` cost ${formatUsd(whole)}, as the session list says` : ''}.` : ''}`}
        content={
          <>
            {formatNumber(turns.length)} turns{since}{usd > 0 ? ` · ${usdText}` : ''}
            {whole !== undefined && <span className="muted"> · session {formatUsd(whole)}</span>} ▾
          </>
        }
      >
        <p className="menu-note muted">
          The costliest turns first{byCost ? '' : priced ? ', then those of no list price by tokens' : ' (no list price: by tokens)'}; ≈ marks an estimate. A bar is as tall as its turn&apos;s {byCost ? 'cost' : 'tokens'}:
        </p>
        {fromRuns && (
          <p className="menu-note muted" data-testid="turns-from-runs">
            The file records each call&apos;s output alone, and each run&apos;s input, cache and output in its total: {formatUsd(usd)} is the runs&apos; totals, a turn&apos;s ≥ its output.
          </p>
        )}
        <p className="turn-legend muted" aria-hidden="true">
          <span>
            <i className="cached" />
            cached input
          </span>
          <span>
            <i className="in" />
            input
          </span>
          <span>
            <i className="out" />
            output
          </span>
        </p>
        <ol className="menu-list turn-list" data-testid="turn-list">
          {ranked.map((k) => {
            const t = turns[k];
            return (
              <li key={k}>
                <button
                  className="menu-item"
                  onClick={() => {
                    go(k);
                    setOpen(false);
                  }}
                  title={turnLabel(t, k, fromRuns)}
                  data-testid="turn-entry"
                  data-first={t.first}
                >
                  <span>
                    #{formatNumber(t.first)} <span className="muted">turn {formatNumber(k + 1)}</span>
                  </span>
                  <span className="num">
                    {t.estimated ? '≈' : fromRuns && t.input === undefined ? '≥' : ''}
                    {t.usd !== undefined ? formatUsd(t.usd) : `${formatNumber((t.input ?? 0) + (t.output ?? 0))} tok`}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
        {turns.length > LIST && <p className="menu-note muted">The {LIST} costliest of {formatNumber(turns.length)}.</p>}
      </Popover>
      <div ref={box} className="turn-bars" role="group" aria-label={`Tokens and cost per turn${byCost ? '' : ' (no price: bars by tokens)'}`} onKeyDown={onKey}>
        {bars.map((k, i) => {
          const t = turns[k];
          const w = weightOf(t, byCost);
          const tokens = Math.max(1, (t.input ?? 0) + (t.output ?? 0));
          const cached = (t.cacheRead ?? 0) / tokens;
          const out = (t.output ?? 0) / tokens;
          return (
            <button
              key={k}
              className={`turn-bar ${t.estimated ? 'estimated' : ''} ${i === currentBar ? 'current' : ''}`}
              style={{ height: `${Math.max(15, (w / top) * 100)}%` }}
              tabIndex={i === focusBar ? 0 : -1}
              aria-label={turnLabel(t, k, fromRuns)}
              aria-current={i === currentBar ? 'true' : undefined}
              title={turnLabel(t, k, fromRuns)}
              onClick={() => go(k)}
              data-testid="turn-bar"
              data-first={t.first}
            >
              <span className="seg out" style={{ flexGrow: out, minHeight: t.output ? 1 : 0 }} />
              <span className="seg in" style={{ flexGrow: Math.max(0, 1 - cached - out) }} />
              <span className="seg cached" style={{ flexGrow: cached }} />
            </button>
          );
        })}
      </div>
    </div>
  );
}
