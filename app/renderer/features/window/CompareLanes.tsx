import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { strategies } from '../../../../src/core/window/registry.js';
import { FATES } from '../../../../src/core/window/types.js';
import { useApp } from '../../store/index.js';
import { RoleChip } from '../RoleChip.js';
import { formatNumber } from '../roles.js';
import { cachedPlanSkeleton } from './plan-skeleton.js';
import { effectiveParams } from './useWindowPlan.js';
import { closeOnEscape } from '../close-on-escape.js';

const DEFAULT_LANES = ['sliding-window', 'truncate', 'summarizing'];
const MARK: Record<string, string> = { kept: '✓', dropped: '⨯', cut: '✂', summarised: 'Σ' };

/** Two to four strategies over the same history, a lane each: where they disagree shows at a glance. */
export function CompareLanes({ onClose }: { onClose(): void }) {
  const { skeleton, counts, windowParams, select, strategyId } = useApp();
  // The strategy in the panel is always one of the lanes.
  const [chosen, setChosen] = useState<string[]>(() => (DEFAULT_LANES.includes(strategyId) ? DEFAULT_LANES : [strategyId, ...DEFAULT_LANES.slice(1)]));
  const scroll = useRef<HTMLDivElement>(null);
  const input = useMemo(() => (skeleton && counts && counts.tokens.length === skeleton.count ? cachedPlanSkeleton(skeleton, counts) : undefined), [skeleton, counts]);
  const plans = useMemo(
    () => (input ? chosen.map((id) => ({ id, plan: strategies.get(id)!.plan(input, effectiveParams(strategies.get(id)!, windowParams[id])) })) : []),
    [input, chosen, windowParams],
  );
  const n = skeleton?.count ?? 0;
  const virtualizer = useVirtualizer({ count: n, getScrollElement: () => scroll.current, estimateSize: () => 24, overscan: 20 });
  const toggle = (id: string) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : c.length < 4 ? [...c, id] : c));
  const cols = `56px 100px 64px repeat(${plans.length}, minmax(90px, 1fr))`;
  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-label="Compare strategies" onKeyDown={closeOnEscape(onClose)}>
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
        {!input ? (
          <p className="loading">Waiting for token counts…</p>
        ) : (
          <div className="lanes-grid">
            <div className="lanes-row lanes-head" style={{ gridTemplateColumns: cols }}>
              <span>#</span>
              <span>role</span>
              <span className="num">tokens</span>
              {plans.map(({ id, plan }) => (
                <span key={id} className="lane-head" data-testid={`lane-head-${id}`}>
                  {strategies.get(id)!.label}
                  <small title={plan.unit === 'rendered' ? 'tokens of the rendered history ([time] role: content blocks)' : 'tokens of message contents'}>
                    {formatNumber(plan.totalBefore)} → {formatNumber(plan.totalAfter)} {plan.unit === 'rendered' ? 'rendered' : 'contents'} · ⨯{formatNumber(plan.counts.dropped)} ✂{formatNumber(plan.counts.cut)} Σ{formatNumber(plan.counts.summarised)}
                  </small>
                </span>
              ))}
            </div>
            <div className="lanes-body" ref={scroll}>
              <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
                {virtualizer.getVirtualItems().map((item) => {
                  const i = item.index;
                  const fates = plans.map(({ plan }) => FATES[plan.fates[i]]);
                  const disagree = fates.some((f) => f !== fates[0]);
                  return (
                    <div key={i} className={`lanes-row ${disagree ? 'disagree' : ''}`} style={{ gridTemplateColumns: cols, transform: `translateY(${item.start}px)` }} onClick={() => select(i)} data-testid="lane-row" data-index={i}>
                      <span className="num">{i}</span>
                      <span><RoleChip role={skeleton!.roles[skeleton!.roleOf[i]]} /></span>
                      <span className="num">{counts!.tokens[i]}</span>
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
