import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import type { CompareAnswer } from '../../../shared/contract.js';
import { useApp, useAppPick } from '../../store/index.js';
import { formatUsd } from '../../../../src/core/usage.js';
import { formatNumber } from '../roles.js';
import { RoleChip } from '../RoleChip.js';
import { useModalFocus } from '../modal-focus.js';
import { layoutLines, type Line } from './layout.js';
import { MarkedText } from './MarkedText.js';
import './compare.css';

type Figures = CompareAnswer['sides'][number]['figures'];
type Side = CompareAnswer['sides'][number];

const signed = (n: number) => (n > 0 ? `+${formatNumber(n)}` : n < 0 ? `−${formatNumber(-n)}` : '±0');
const signedUsd = (n: number, estimated?: boolean) => `${estimated ? '≈ ' : ''}${n > 0 ? '+' : n < 0 ? '−' : '±'}${formatUsd(Math.abs(n))}`;
const usd = (f: Figures) => (f.cost === undefined ? '' : ` · ${f.costEstimated ? '≈ ' : ''}${formatUsd(f.cost)}`);
const plural = (n: number, w: string) => `${formatNumber(n)} ${w}${n === 1 ? '' : 's'}`;

function figuresText(f: Figures, approximate: boolean): string {
  return `${plural(f.messages, 'message')} · ${approximate ? '≈ ' : ''}${formatNumber(f.tokens)} tok${usd(f)}`;
}

/** Two sessions, or two branches of one, side by side: aligned rows, changed words marked, turns with their figures. */
export function CompareView() {
  const { compare, closeCompare, stepDifference } = useAppPick('compare', 'closeCompare', 'stepDifference');
  const ref = useModalFocus<HTMLDivElement>();
  const body = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const answer = compare?.answer;
  const lines = useMemo(() => (answer ? layoutLines(answer, open) : []), [answer, open]);
  const current = compare && answer && compare.current >= 0 ? answer.differences[compare.current] : undefined;

  // Focus the view as it opens, so that its keys work at once.
  useEffect(() => {
    body.current?.focus();
  }, [answer]);
  useEffect(() => {
    if (current === undefined) return;
    const el = body.current?.querySelector<HTMLElement>(`[data-row="${current}"]`);
    el?.scrollIntoView({ block: 'center' });
    el?.focus({ preventScroll: true });
  }, [current, compare?.current]);

  if (!compare) return null;
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      closeCompare();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const next = e.key === 'n' || e.key === 'j' || (e.key === 'F7' && !e.shiftKey);
    const prev = e.key === 'p' || e.key === 'k' || (e.key === 'F7' && e.shiftKey);
    if (!next && !prev) return;
    e.preventDefault();
    stepDifference(next ? 1 : -1);
  };
  const n = answer?.differences.length ?? 0;
  const position = compare.current >= 0 ? `Difference ${compare.current + 1} of ${n}` : n === 0 ? 'No differences' : `${plural(n, 'difference')}: N for the next`;
  return (
    <div className="cmp-layer" role="dialog" aria-modal="true" aria-labelledby="cmp-title" data-testid="compare-view" ref={ref} onKeyDown={onKey}>
      <header className="cmp-head">
        <div className="cmp-title-line">
          <h2 id="cmp-title">Compare</h2>
          {answer && <Summary answer={answer} />}
          <div className="cmp-nav">
            <button onClick={() => stepDifference(-1)} disabled={n === 0} title="Previous difference (P, K or Shift+F7)" data-testid="compare-prev">
              ↑ Previous
            </button>
            <span className="cmp-position" aria-live="polite" data-testid="compare-position">
              {position}
            </span>
            <button onClick={() => stepDifference(1)} disabled={n === 0} title="Next difference (N, J or F7)" data-testid="compare-next">
              Next ↓
            </button>
            <button className="cmp-close" onClick={closeCompare} aria-label="Close the comparison" title="Close (Esc)" data-testid="compare-close">
              ×
            </button>
          </div>
        </div>
        {answer && (
          <div className="cmp-sides">
            <SideHead side={answer.sides[0]} tag="A" approximate={answer.approximate} />
            <SideHead side={answer.sides[1]} tag="B" approximate={answer.approximate} />
          </div>
        )}
      </header>
      {compare.error && (
        <p className="error-text cmp-error" role="alert">
          {compare.error}
        </p>
      )}
      {!answer && !compare.error && (
        <p className="loading cmp-loading" data-testid="compare-loading">
          Comparing…
        </p>
      )}
      {answer && (
        <div className="cmp-body" ref={body} tabIndex={0} role="region" aria-label="The two sides, aligned (N and P: next and previous difference)" data-testid="compare-body" data-ready="true">
          {lines.map((line) => (
            <LineView key={line.key} line={line} answer={answer} current={current} onUnfold={(run) => setOpen(new Set([...open, run]))} />
          ))}
        </div>
      )}
    </div>
  );
}

function Summary({ answer }: { answer: CompareAnswer }) {
  const c = answer.counts;
  const d = answer.delta;
  const differ = answer.turns.filter((t) => t.differs).length;
  return (
    <p className="cmp-summary" data-testid="compare-summary">
      <span>
        {formatNumber(c.same)} same · {formatNumber(c.changed)} changed · {formatNumber(c['only-left'])} only in A · {formatNumber(c['only-right'])} only in B · {differ} of {plural(answer.turns.length, 'turn')} differ
      </span>
      <span className="cmp-delta" data-testid="compare-delta" title={`B less A. Tokens counted with ${answer.countedWith}${d.costEstimated ? '; ≈ cost: estimated from the tokens counted where the file reports no usage' : ''}`}>
        B − A: {signed(d.messages)} msgs · {answer.approximate ? '≈ ' : ''}
        {signed(d.tokens)} tok{d.cost !== undefined ? ` · ${signedUsd(d.cost, d.costEstimated)}` : ''}
      </span>
    </p>
  );
}

function SideHead({ side, tag, approximate }: { side: Side; tag: 'A' | 'B'; approximate: boolean }) {
  return (
    <div className={`cmp-side cmp-side-${tag.toLowerCase()}`} data-testid={`compare-side-${tag.toLowerCase()}`} title={side.path}>
      <span className="cmp-tag" aria-label={`side ${tag}`}>
        {tag}
      </span>
      <span className="cmp-side-title">{side.title}</span>
      {side.what && <span className="cmp-side-what">{side.what}</span>}
      <span className="cmp-side-figures">{figuresText(side.figures, approximate)}</span>
    </div>
  );
}

const KIND_LABEL: Record<string, string> = { same: 'the same', changed: 'changed', replaced: 'different on each side', 'only-left': 'only in A', 'only-right': 'only in B' };

function LineView({ line, answer, current, onUnfold }: { line: Line; answer: CompareAnswer; current: number | undefined; onUnfold(run: number): void }) {
  if (line.type === 'turn') {
    const t = answer.turns[line.turn];
    const dt = t.right.tokens - t.left.tokens;
    const cost = t.left.cost !== undefined || t.right.cost !== undefined ? signedUsd((t.right.cost ?? 0) - (t.left.cost ?? 0), t.left.costEstimated || t.right.costEstimated) : undefined;
    return (
      <div className={`cmp-turn ${t.differs ? 'differs' : ''}`} data-testid="compare-turn" data-turn={line.turn}>
        <span className="cmp-turn-name">Turn {line.turn + 1}</span>
        {t.differs ? (
          <span className="cmp-turn-figures" data-testid="compare-turn-delta">
            A {formatNumber(t.left.tokens)} tok{usd(t.left)} · B {formatNumber(t.right.tokens)} tok{usd(t.right)} · <b>Δ {signed(dt)} tok{cost ? ` · ${cost}` : ''}</b>
          </span>
        ) : (
          <span className="cmp-turn-figures">the same on both sides</span>
        )}
      </div>
    );
  }
  if (line.type === 'fold') {
    return (
      <div className="cmp-fold">
        <button onClick={() => onUnfold(line.run)} data-testid="compare-unfold">
          ⋯ {plural(line.to - line.from, 'message')} the same on both sides{line.turns > 1 ? ` (${line.turns} turns)` : ''}: show them
        </button>
      </div>
    );
  }
  const [a, b] = answer.sides;
  const l = line.left === undefined ? undefined : a.messages[line.left];
  const r = line.right === undefined ? undefined : b.messages[line.right];
  const differs = line.kind !== 'same';
  const isCurrent = current === line.row;
  const firstOfDifference = answer.differences.includes(line.row);
  return (
    <div
      className={`cmp-row ${line.kind} ${isCurrent ? 'current' : ''}`}
      data-testid="compare-row"
      data-kind={line.kind}
      data-row={firstOfDifference ? line.row : undefined}
      tabIndex={firstOfDifference ? -1 : undefined}
      aria-label={firstOfDifference ? `Difference at turn ${answer.rows[line.row].turn + 1}: ${KIND_LABEL[line.kind]}` : undefined}
    >
      <Cell message={l} index={line.left} side="a" ranges={line.words?.left} kind={line.kind} />
      <div className="cmp-gutter" aria-label={differs ? `B less A: ${signed(line.tokens)} tokens` : undefined}>
        <span className="cmp-mark" aria-hidden="true">
          {line.kind === 'same' ? '=' : line.kind === 'changed' ? '~' : line.kind === 'only-left' ? '−' : line.kind === 'only-right' ? '+' : '≠'}
        </span>
        {differs && <span className="cmp-dt">{signed(line.tokens)}</span>}
        {differs && line.cost !== undefined && <span className="cmp-dc">{signedUsd(line.cost, line.costEstimated)}</span>}
        {line.whitespaceOnly && <span className="cmp-ws">white space only</span>}
      </div>
      <Cell message={r} index={line.right} side="b" ranges={line.words?.right} kind={line.kind} />
    </div>
  );
}

function Cell({ message, index, side, ranges, kind }: { message: Side['messages'][number] | undefined; index: number | undefined; side: 'a' | 'b'; ranges?: Array<[number, number]>; kind: string }) {
  if (!message || index === undefined) return <div className={`cmp-cell empty cmp-cell-${side}`} aria-hidden="true" />;
  const marked = kind === 'changed' ? ranges : undefined;
  const whole = kind === 'only-left' || kind === 'only-right' || kind === 'replaced';
  return (
    <div className={`cmp-cell cmp-cell-${side} ${whole ? (side === 'a' ? 'removed' : 'added') : ''}`} data-testid={`compare-cell-${side}`}>
      <div className="cmp-cell-head">
        <span className="cmp-num" title={`Message ${index + 1} of side ${side.toUpperCase()} (row ${message.at} of its file)`}>
          #{index + 1}
        </span>
        <RoleChip role={message.role} normal={message.normalRole} />
        <span className="cmp-tok">{formatNumber(message.tokens)} tok</span>
        {message.cost !== undefined && <span className="cmp-cost">{message.costEstimated ? '≈ ' : ''}{formatUsd(message.cost)}</span>}
        {message.lines > 1 && <span className="cmp-lines muted" title="A response written as several lines of the file (one API call)">{message.lines} lines</span>}
      </div>
      <MarkedText text={message.text} ranges={marked} as={side === 'a' ? 'del' : 'ins'} more={message.more} />
    </div>
  );
}

/**
 * The compare view when one is open (the store's `compare`), over the whole window: the app behind it is inert
 * (no focus, no clicks, out of the accessibility tree) until it closes.
 */
export function CompareLayer() {
  const open = useApp((s) => s.compare !== undefined);
  useEffect(() => {
    const app = document.querySelector('.app');
    if (!open || !app) return;
    app.setAttribute('inert', '');
    return () => app.removeAttribute('inert');
  }, [open]);
  return open ? createPortal(<CompareView />, document.body) : null;
}
