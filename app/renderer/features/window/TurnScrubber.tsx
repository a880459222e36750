import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { Skeleton } from '../../../shared/contract.js';
import { milestoneSearch, planAtTurn, type TurnMilestones } from '../../../../src/core/window/turns.js';
import { turnEndsOf, type TurnKind } from '../../../../src/core/window/turn-kinds.js';
import { FLAGS } from '../../../shared/contract.js';
import type { WindowPlan, WindowSkeleton, WindowStrategy } from '../../../../src/core/window/types.js';
import { formatNumber } from '../roles.js';
import { FateStrip } from './FateStrip.js';
import { useApp } from '../../store/index.js';

/**
 * The window as it evolved during the run: drag through the turns (each user message, the model then
 * called with the history up to it) and see the plan the strategy would have made of that history; the
 * turns where the system prompt first fell out and summarising first fired are one click away.
 */
export function TurnScrubber(props: { skeleton: Skeleton; input: WindowSkeleton; strategy: WindowStrategy; params: Record<string, unknown>; current: WindowPlan; onSelect(i: number): void }) {
  // Closed, it costs nothing while the budget slider moves; open, its searches run in short tasks.
  const [open, setOpen] = useState(false);
  return (
    <details className="turns" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)} data-testid="turns-details">
      <summary>During the run: the window at each turn</summary>
      {open && <Scrubber {...props} />}
    </details>
  );
}

/** A plan per short task: the milestones of a 150,000-message history never hold up a frame for long. */
const MILESTONE_DELAY_MS = 300;

function Scrubber({ skeleton, input, strategy, params, current, onSelect }: { skeleton: Skeleton; input: WindowSkeleton; strategy: WindowStrategy; params: Record<string, unknown>; current: WindowPlan; onSelect(i: number): void }) {
  // A turn is a prompt the person typed, or a call the model was sent: a tool's result is neither.
  const [kind, setKind] = useState<TurnKind>('prompt');
  const ends = useMemo(
    () => turnEndsOf(Array.from({ length: skeleton.count }, (_, i) => ({ normalRole: skeleton.normalRoles[skeleton.roleOf[i]], toolResult: (skeleton.flags[i] & FLAGS.toolResult) !== 0, meta: (skeleton.flags[i] & (FLAGS.meta | FLAGS.summary)) !== 0 })), kind),
    [skeleton, kind],
  );
  const [turn, setTurn] = useState(ends.length - 1);
  useEffect(() => setTurn((t) => Math.min(t, ends.length - 1)), [ends]);
  const shown = useDeferredValue(Math.max(0, turn));
  const key = JSON.stringify(params);
  // At the last turn the window is the panel's own plan.
  const plan: WindowPlan | undefined = useMemo(() => (ends.length === 0 ? undefined : shown === ends.length - 1 ? current : planAtTurn(strategy, input, params, ends[shown])), [ends, shown, strategy, input, key, current]);
  // Found after the first paint, a few dozen plans of prefixes: not in the way of the slider.
  const [milestones, setMilestones] = useState<TurnMilestones | undefined>();
  useEffect(() => {
    setMilestones(undefined);
    const search = milestoneSearch(strategy, input, params, ends);
    let timer: ReturnType<typeof setTimeout>;
    const step = () => {
      const next = search.next();
      if (next.done) setMilestones(next.value);
      else timer = setTimeout(step, 0);
    };
    timer = setTimeout(step, MILESTONE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [strategy, input, key, ends]);
  // Off the last turn, the table and its minimap show the window as it was then.
  const setTurnView = useApp((s) => s.setTurnView);
  useEffect(() => {
    setTurnView(plan && shown < ends.length - 1 ? { turn: shown + 1, turns: ends.length, end: ends[shown], plan } : undefined);
  }, [plan, shown, ends, setTurnView]);
  useEffect(() => () => setTurnView(undefined), [setTurnView]);
  if (!plan || ends.length === 0) return null;
  const t = ends[shown];
  const jump = (k: number | undefined) => k !== undefined && setTurn(k);
  const noun = kind === 'prompt' ? 'Prompt' : 'Model call';
  return (
    <section aria-label="The window during the run" data-testid="turns">
      <span className="filters" role="group" aria-label="A turn is">
        {(['prompt', 'call'] as const).map((k) => (
          <button key={k} className={`chip-toggle ${kind === k ? 'on' : ''}`} aria-pressed={kind === k} onClick={() => setKind(k)} data-testid={`turn-kind-${k}`}>
            {k === 'prompt' ? 'by prompt' : 'by model call'}
          </button>
        ))}
      </span>
      <input
        type="range"
        min={0}
        max={ends.length - 1}
        step={1}
        value={turn}
        onChange={(e) => setTurn(Number(e.target.value))}
        aria-label={noun}
        aria-valuetext={`${noun.toLowerCase()} ${turn + 1} of ${ends.length}`}
        data-testid="turn-slider"
      />
      <div className="small" data-testid="turn-summary">
        {noun} {formatNumber(shown + 1)} of {formatNumber(ends.length)} · {sentRange(plan.compactedBefore, t)}: {plan.warnings.some((w) => w.code === 'approximate-cut') ? '≈' : ''}
        {formatNumber(plan.totalAfter)} of {formatNumber(plan.totalBefore)} tok · {formatNumber(plan.counts.kept)} kept · ⨯ {formatNumber(plan.counts.dropped)} · ✂ {formatNumber(plan.counts.cut)} · Σ {formatNumber(plan.counts.summarised)}
      </div>
      <FateStrip fates={plan.fates} n={skeleton.count} onSelect={onSelect} label={`Fates at turn ${shown + 1}; the rest of the conversation had not happened yet`} testid="turn-strip" />
      <div className="milestones">
        {!milestones ? (
          <span className="muted">Looking for when the window changed…</span>
        ) : (
          <>
            <Milestone label="first trimmed" turn={milestones.trimmed} onJump={jump} testid="milestone-trimmed" />
            <Milestone label="system prompt first lost" turn={milestones.staticLost} onJump={jump} testid="milestone-static" />
            <Milestone label="first summarised" turn={milestones.summarised} onJump={jump} testid="milestone-summarised" />
          </>
        )}
      </div>
    </section>
  );
}

/**
 * Which messages the model was sent at a turn ending before `t`: after a compaction (its boundary at `c`), its
 * summary and what followed, the history before it replaced.
 */
function sentRange(c: number | undefined, t: number): string {
  if (c === undefined || c <= 0) return `the model was sent messages 0–${formatNumber(t - 1)}`;
  return `the model was sent messages ${formatNumber(c)}–${formatNumber(t - 1)}, from the compaction at #${formatNumber(c)} on (Σ: the ${formatNumber(c)} messages its summary replaced)`;
}

function Milestone({ label, turn, onJump, testid }: { label: string; turn: number | undefined; onJump(k: number): void; testid: string }) {
  if (turn === undefined) return <span className="muted" data-testid={testid}>{label}: never</span>;
  return (
    <button className="link" onClick={() => onJump(turn)} data-testid={testid} data-turn={turn}>
      {label}: turn {formatNumber(turn + 1)}
    </button>
  );
}
