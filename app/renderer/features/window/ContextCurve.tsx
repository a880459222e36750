import { useEffect, useMemo, useRef, useState } from 'react';
import { FLAGS, type Skeleton } from '../../../shared/contract.js';
import { planAtTurn } from '../../../../src/core/window/turns.js';
import type { WindowSkeleton, WindowStrategy } from '../../../../src/core/window/types.js';
import { maxOf } from '../../../../src/core/util/numbers.js';
import { formatNumber } from '../roles.js';

/** Plans of this many calls at most are drawn (a long session's calls are sampled evenly). */
const MAX_POINTS = 160;
/** Drawn at the panel's own width in CSS pixels, so its figures read at the size of the text around them. */
const H = 170;
const PAD = { left: 58, right: 10, top: 14, bottom: 24 };

interface Point {
  /** The message the call wrote (the history before it was sent). */
  at: number;
  value: number;
}

/**
 * The context as the agent really had it, from the usage the API reported for each model call (every prompt
 * token, cached ones too), beside what the chosen strategy would have sent at the same calls: where the agent
 * compacted against where the strategy would have cut.
 */
export function ContextCurve({ skeleton, input, strategy, params }: { skeleton: Skeleton; input: WindowSkeleton; strategy: WindowStrategy; params: Record<string, unknown> }) {
  const key = JSON.stringify(params);
  const box = useRef<HTMLElement>(null);
  const [W, setW] = useState(480);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => el.clientWidth > 0 && setW(el.clientWidth);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);
  // Where the agent compacted: the boundary rows of the path shown.
  const compactions = useMemo(() => skeleton.flags.flatMap((f, i) => (f & FLAGS.compaction ? [i] : [])), [skeleton.flags]);
  const curves = useMemo(() => {
    const calls: Point[] = [];
    skeleton.usage.at.forEach((at, k) => {
      const u = skeleton.usage.values[k];
      if (u.input !== undefined) calls.push({ at, value: u.input });
    });
    if (calls.length < 2) return undefined;
    const step = Math.max(1, Math.ceil(calls.length / MAX_POINTS));
    const sampled = calls.filter((_, k) => k % step === 0 || k === calls.length - 1);
    // What a request holds beside the messages (the system prompt, the tool schemas) the file does not keep:
    // the first call's reported input less the messages before it, added to every what-if point.
    let before = 0;
    for (let i = 0; i < calls[0].at && i < input.messages.length; i++) before += input.messages[i].tokens;
    // A strategy that takes the system prompt and tools as a setting (auto-compact's) is drawn with what is set
    // there: the panel says one figure for it, not two (the setting's default is worked out from the first call too).
    const setting = strategy.params?.some((p) => p.key === 'fixedTokens') ? Number(params.fixedTokens) : Number.NaN;
    const set = Number.isFinite(setting) && setting >= 0;
    const overhead = set ? setting : Math.max(0, calls[0].value - before);
    const whatIf = sampled.map((c) => ({ at: c.at, value: planAtTurn(strategy, input, params, c.at).totalAfter + overhead }));
    return { actual: sampled, whatIf, overhead, set };
  }, [skeleton.usage, input, strategy, key]);
  if (!curves) return null;
  const n = Math.max(1, skeleton.count - 1);
  const top = maxOf(curves.actual.map((p) => p.value).concat(curves.whatIf.map((p) => p.value)), 1);
  const x = (at: number) => PAD.left + ((W - PAD.left - PAD.right) * at) / n;
  const y = (v: number) => H - PAD.bottom - ((H - PAD.top - PAD.bottom) * v) / top;
  const line = (pts: Point[]) => pts.map((p, k) => `${k === 0 ? 'M' : 'L'}${x(p.at).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const last = curves.actual[curves.actual.length - 1];
  const lastWhatIf = curves.whatIf[curves.whatIf.length - 1];
  return (
    <figure className="context-curve" data-testid="context-curve" ref={box}>
      <figcaption>
        Context at each model call: <span className="key actual">as the API reported it</span> (last {formatNumber(last.value)} tok) and{' '}
        <span className="key what-if">as {strategy.label.toLowerCase()} would have sent it</span> ({formatNumber(lastWhatIf.value)} tok, counted here
        {curves.overhead > 0 ? `, with the ${formatNumber(curves.overhead)} tok of system prompt and tools ${curves.set ? 'set above' : 'the first call reported beyond the messages'}` : ''})
      </figcaption>
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`The context the model had at ${curves.actual.length} calls, up to ${formatNumber(top)} tokens, beside the strategy's${compactions.length > 0 ? `; compacted ${compactions.length === 1 ? 'once' : `${compactions.length} times`}` : ''}`}>
        <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} className="axis" />
        <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={y(0)} className="axis" />
        <text x={PAD.left - 4} y={y(top) + 4} textAnchor="end" className="tick">
          {formatNumber(top)}
        </text>
        <text x={PAD.left - 4} y={y(0)} textAnchor="end" className="tick">
          0
        </text>
        <text x={PAD.left} y={H - 6} className="tick">
          message 0
        </text>
        <text x={W - PAD.right} y={H - 6} textAnchor="end" className="tick">
          message {formatNumber(n)}
        </text>
        <text x={PAD.left - 4} y={y(top / 2) + 4} textAnchor="end" className="tick">
          {formatNumber(Math.round(top / 2))}
        </text>
        <line x1={PAD.left} x2={W - PAD.right} y1={y(top / 2)} y2={y(top / 2)} className="grid" />
        {compactions.map((at) => (
          <g key={at} className="compaction-mark" data-testid="curve-compaction">
            <line x1={x(at)} x2={x(at)} y1={PAD.top} y2={y(0)} />
            <text x={x(at) + 3} y={PAD.top + 8} className="tick">
              compacted
            </text>
          </g>
        ))}
        <path d={line(curves.whatIf)} className="what-if" data-testid="curve-what-if" />
        <path d={line(curves.actual)} className="actual" data-testid="curve-actual" />
      </svg>
    </figure>
  );
}
