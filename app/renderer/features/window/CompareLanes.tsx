import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { planAtTurn } from '../../../../src/core/window/turns.js';
import { strategies } from '../../../../src/core/window/registry.js';
import { FATES } from '../../../../src/core/window/types.js';
import { useApp, useAppPick } from '../../store/index.js';
import { RoleChip } from '../RoleChip.js';
import { formatNumber } from '../roles.js';
import { cachedPlanSkeleton } from './plan-skeleton.js';
import { effectiveParams } from './useWindowPlan.js';
import { closeOnEscape } from '../close-on-escape.js';
import { PAGE_SIZE } from '../../store/conversation.js';
import { differenceStarts, laneItems, nextDifference } from './lane-rows.js';

// Strategies that trim at different places, so the lanes agree on long runs and differ where they matter
// (summarizing marks every message it drops as summarised: beside a lane that drops, every such row differs).
const DEFAULT_LANES = ['dynamic-context-window', 'truncate', 'sliding-window'];
const MARK: Record<string, string> = { kept: '✓', dropped: '⨯', cut: '✂', summarised: 'Σ' };

/** Two to four strategies over the same history, a lane each: where they disagree shows at a glance. */
export function CompareLanes({ onClose }: { onClose(): void }) {
  const { skeleton, counts, windowParams, select, strategyId } = useAppPick('skeleton', 'counts', 'windowParams', 'select', 'strategyId');
  // The strategy in the panel is always one of the lanes.
  const [chosen, setChosen] = useState<string[]>(() => (DEFAULT_LANES.includes(strategyId) ? DEFAULT_LANES : [strategyId, ...DEFAULT_LANES.slice(1)]));
  const scroll = useRef<HTMLDivElement>(null);
  const input = useMemo(() => (skeleton && counts && counts.tokens.length === skeleton.count ? cachedPlanSkeleton(skeleton, counts) : undefined), [skeleton, counts]);
  const plans = useMemo(
    () => (input ? chosen.map((id) => ({ id, plan: planAtTurn(strategies.get(id)!, input, effectiveParams(strategies.get(id)!, windowParams[id]), input.messages.length) })) : []),
    [input, chosen, windowParams],
  );
  const n = skeleton?.count ?? 0;
  const pages = useApp((st) => st.pages);
  const ensureRows = useApp((st) => st.ensureRows);
  const [unfolded, setUnfolded] = useState<Set<number>>(() => new Set());
  const items = useMemo(() => (plans.length ? laneItems(plans.map((p) => p.plan.fates), n, unfolded) : []), [plans, n, unfolded]);
  const starts = useMemo(() => differenceStarts(items), [items]);
  const differing = useMemo(() => items.reduce((a, it) => a + (it.kind === 'message' && it.differs ? 1 : 0), 0), [items]);
  // The difference shown, by its message (item positions move when a run is unfolded).
  const [currentMessage, setCurrentMessage] = useState<number | undefined>();
  const current = useMemo(() => (currentMessage === undefined ? undefined : items.findIndex((it) => it.kind === 'message' && it.index === currentMessage)), [items, currentMessage]);
  const virtualizer = useVirtualizer({ count: items.length, getScrollElement: () => scroll.current, estimateSize: () => 24, overscan: 20 });
  const visible = virtualizer.getVirtualItems();
  // The content column's rows, a page at a time as they come into view.
  const first = visible.length ? items[visible[0].index] : undefined;
  const last = visible.length ? items[visible[visible.length - 1].index] : undefined;
  const from = first ? (first.kind === 'run' ? first.start : first.index) : 0;
  const to = last ? (last.kind === 'run' ? last.start + 1 : last.index + 1) : 0;
  useEffect(() => {
    if (to > from) ensureRows(from, to);
  }, [from, to, ensureRows]);
  const preview = (i: number) => pages.get(Math.floor(i / PAGE_SIZE))?.[i % PAGE_SIZE]?.preview;
  const go = (step: 1 | -1) => {
    const k = nextDifference(starts, current === undefined || current < 0 ? (step === 1 ? -1 : items.length) : current, step);
    if (k === undefined) return;
    setCurrentMessage((items[k] as { index: number }).index);
    virtualizer.scrollToIndex(k, { align: 'center' });
  };
  // N and P (F7, Shift+F7) wherever the focus is while the dialog is open (a run clicked open takes the
  // focus with it): taken before the app's own keys, where N would add a message behind the dialog.
  const goRef = useRef(go);
  goRef.current = go;
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      // Esc too: with the focus gone from the dialog (a folded run clicked open), it would close the panel behind.
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopImmediatePropagation();
        closeRef.current();
        return;
      }
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.ctrlKey || e.metaKey || e.altKey) return;
      const next = e.key === 'n' || (e.key === 'F7' && !e.shiftKey);
      const prev = e.key === 'p' || (e.key === 'F7' && e.shiftKey);
      if (!next && !prev) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      goRef.current(next ? 1 : -1);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
  const [full, setFull] = useState(false);
  // A fifth is not taken silently: said, until one is put away.
  const toggle = (id: string) => {
    const c = chosen;
    setFull(!c.includes(id) && c.length >= 4);
    setChosen(c.includes(id) ? c.filter((x) => x !== id) : c.length < 4 ? [...c, id] : c);
  };
  const cols = `56px 100px 64px minmax(160px, 2fr) repeat(${plans.length}, minmax(90px, 1fr))`;
  const diffLabel = starts.length === 0 ? 'the lanes agree on every message' : `${formatNumber(differing)} message${differing === 1 ? '' : 's'} differ, in ${formatNumber(starts.length)} place${starts.length === 1 ? '' : 's'}`;
  const position = current === undefined || current < 0 ? undefined : starts.indexOf(current);
  return (
    <div
      className="dialog"
      role="dialog"
      aria-modal="true"
      aria-label="Compare strategies"
      onKeyDown={closeOnEscape(onClose)}
    >
      <div className="dialog-body wide lanes" data-testid="lanes">
        <div className="panel-head">
          <h2>Compare strategies (2 to 4; each with its parameters from the panel)</h2>
          <button autoFocus onClick={onClose} aria-label="Close">×</button>
        </div>
        <div className="filters" role="group" aria-label="Strategies to compare">
          {strategies.list().map((s) => (
            <button key={s.id} className={`chip-toggle ${chosen.includes(s.id) ? 'on' : ''}`} aria-pressed={chosen.includes(s.id)} onClick={() => toggle(s.id)} data-testid={`lane-toggle-${s.id}`}>
              {s.label}
            </button>
          ))}
        </div>
        {full && (
          <p className="muted small" role="status" data-testid="lanes-full">
            Four lanes at most: put one away to compare another.
          </p>
        )}
        <div className="lanes-nav">
          <span data-testid="lanes-differences">{diffLabel}</span>
          <button onClick={() => go(-1)} disabled={starts.length === 0} data-testid="lanes-prev" title="Previous difference (P or Shift+F7)">
            ↑ previous
          </button>
          <button onClick={() => go(1)} disabled={starts.length === 0} data-testid="lanes-next" title="Next difference (N or F7)">
            ↓ next difference
          </button>
          {position !== undefined && position >= 0 && <span className="muted">{`${position + 1} of ${starts.length}`}</span>}
        </div>
        {!input ? (
          <p className="loading">Waiting for token counts…</p>
        ) : (
          <div className="lanes-grid">
            <div className="lanes-row lanes-head" style={{ gridTemplateColumns: cols }}>
              <span>#</span>
              <span>role</span>
              <span className="num">tokens</span>
              <span>content</span>
              {plans.map(({ id, plan }) => (
                <span key={id} className="lane-head" data-testid={`lane-head-${id}`}>
                  {strategies.get(id)!.label}
                  <small title={plan.unit === 'rendered' ? 'tokens of the rendered history ([time] role: content blocks)' : 'tokens of message contents'}>
                    {formatNumber(plan.totalBefore)} → {formatNumber(plan.totalAfter)} {plan.unit === 'rendered' ? 'rendered' : 'contents'}
                  </small>
                  <small title="dropped, cut, summarised">
                    ⨯{formatNumber(plan.counts.dropped)} ✂{formatNumber(plan.counts.cut)} Σ{formatNumber(plan.counts.summarised)}
                  </small>
                </span>
              ))}
            </div>
            <div className="lanes-body" ref={scroll}>
              <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
                {visible.map((v) => {
                  const item = items[v.index];
                  if (item.kind === 'run') {
                    const count = item.end - item.start;
                    const fate = FATES[item.fate];
                    return (
                      <button
                        key={`run-${item.start}`}
                        className="lanes-row lanes-run"
                        style={{ transform: `translateY(${v.start}px)` }}
                        onClick={() => setUnfolded((u) => new Set(u).add(item.start))}
                        data-testid="lane-run"
                        data-start={item.start}
                        data-end={item.end}
                        data-fate={fate}
                        title="Show these rows"
                      >
                        {`${formatNumber(item.start)}–${formatNumber(item.end - 1)} · ${formatNumber(count)} rows agree: ${MARK[fate]} ${fate} in every lane`}
                      </button>
                    );
                  }
                  const i = item.index;
                  const fates = plans.map(({ plan }) => FATES[plan.fates[i]]);
                  return (
                    <div
                      key={i}
                      className={`lanes-row ${item.differs ? 'disagree' : ''} ${v.index === current ? 'current' : ''}`}
                      style={{ gridTemplateColumns: cols, transform: `translateY(${v.start}px)` }}
                      onClick={() => select(i)}
                      data-testid="lane-row"
                      data-index={i}
                    >
                      <span className="num">{i}</span>
                      <span>
                        <RoleChip role={skeleton!.roles[skeleton!.roleOf[i]]} />
                      </span>
                      <span className="num">{counts!.tokens[i]}</span>
                      <span className="lane-content">{preview(i) ?? ''}</span>
                      {fates.map((f, k) => (
                        <span key={plans[k].id} className={`lane-cell fate-${f}`} aria-label={`${plans[k].id}: ${f}`} data-fate={f}>
                          {MARK[f]} {f}
                        </span>
                      ))}
                    </div>
                  );
                })}
              </div>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
