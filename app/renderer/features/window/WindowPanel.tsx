import { useEffect, useState } from 'react';
import { strategies } from '../../../../src/core/window/registry.js';
import type { ParamSpec } from '../../../../src/core/window/types.js';
import { request } from '../../api/client.js';
import { useApp, useAppPick } from '../../store/index.js';
import { formatNumber } from '../roles.js';
import { ChartLegend, CumulativeChart } from './CumulativeChart.js';
import { CompactSection } from './CompactSection.js';
import { CompareLanes } from './CompareLanes.js';
import { TurnScrubber } from './TurnScrubber.js';
import { FateStrip } from './FateStrip.js';
import { cachedPlanSkeleton } from './plan-skeleton.js';
import { ContextCurve } from './ContextCurve.js';
import { PlanCharts } from './PlanCharts.js';
import { useWindowPlan } from './useWindowPlan.js';
import { closeOnEscape } from '../close-on-escape.js';
import { useModalFocus } from '../modal-focus.js';
import { budgetAt, budgetHigh, nudged, positionOf, SLIDER_STEPS, stepped } from './budget-scale.js';
import { NumberField } from './NumberField.js';

function ParamControl({ spec, value, total, messages, onChange }: { spec: ParamSpec; value: unknown; total: number; messages: number; onChange(v: unknown): void }) {
  const id = `param-${spec.key}`;
  if (spec.kind === 'choice') {
    return (
      <label className="param" htmlFor={id}>
        {spec.label}
        <select id={id} value={String(value)} onChange={(e) => onChange(e.target.value)}>
          {spec.choices?.map((c) => <option key={c} value={c}>{c}</option>)}
        </select>
      </label>
    );
  }
  if (spec.kind === 'boolean') {
    return (
      <label className="param param-check" htmlFor={id} title={spec.help}>
        <input id={id} type="checkbox" checked={value === true || value === 'true'} onChange={(e) => onChange(e.target.checked)} data-testid={`check-${spec.key}`} />
        {spec.label}
      </label>
    );
  }
  if (spec.kind === 'text') {
    return (
      <label className="param" htmlFor={id}>
        {spec.label}
        <input id={id} type="text" value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />
      </label>
    );
  }
  const n = typeof value === 'number' ? value : Number(value ?? 0);
  // The track ends past where everything fits for a budget, at the history's length for a count.
  const high = spec.kind === 'tokens' ? budgetHigh(total) : Math.max(10, messages);
  const low = spec.kind === 'tokens' ? undefined : 1;
  return (
    <label className="param" htmlFor={id}>
      <span>{spec.label}</span>
      <span className="param-row">
        <input
          id={id}
          type="range"
          min={0}
          max={SLIDER_STEPS}
          step={1}
          value={positionOf(n, high, low)}
          onChange={(e) => onChange(Math.max(spec.min ?? 0, budgetAt(Number(e.target.value), high, low)))}
          onKeyDown={(e) => {
            // Each key a different figure (the browser's own step can read alike at the low end of a log scale).
            const by = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: SLIDER_STEPS / 20, PageDown: -SLIDER_STEPS / 20 }[e.key];
            if (by === undefined) return;
            e.preventDefault();
            onChange(Math.max(spec.min ?? 0, stepped(n, high, by, low)));
          }}
          aria-label={spec.label}
          aria-valuetext={formatNumber(n)}
          title={`${formatNumber(n)} (a logarithmic scale up to ${formatNumber(high)})`}
          data-testid={`slider-${spec.key}`}
        />
        <NumberField value={n} min={spec.min ?? 0} onChange={onChange} label={`${spec.label} (number)`} testId={`input-${spec.key}`} />
      </span>
    </label>
  );
}

/** The window panel: pick a strategy and its parameters; every row shows its fate, live as a slider moves. */
export function WindowPanel() {
  const { openPath, model, strategyId, setStrategy, setParam, toggleWindow, select, skeleton, counts, turnView } = useAppPick('openPath', 'model', 'strategyId', 'setStrategy', 'setParam', 'toggleWindow', 'select', 'skeleton', 'counts', 'turnView');
  const { plan, strategy, params, total } = useWindowPlan();
  const [preview, setPreview] = useState<Preview | undefined>();
  const [previewError, setPreviewError] = useState<string | undefined>();
  const [lanes, setLanes] = useState(false);
  const [large, setLarge] = useState(false);
  const budgetKey = strategy.params.find((p) => p.kind === 'tokens')?.key;
  const budget = budgetKey ? Number(params[budgetKey]) : undefined;
  // Over when the total passes the budget, or the planner says so (auto-compact's window holds the system prompt too).
  const overWarning = plan?.warnings.find((w) => w.code === 'budget-exceeded');
  const over = plan !== undefined && (overWarning !== undefined || (budget !== undefined && Number.isFinite(budget) && plan.totalAfter > budget));
  // Budgets are measured in the plan's basis: its total is where a budget keeps everything.
  const basisTotal = plan?.totalBefore ?? total;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLInputElement && e.target.type !== 'range';
      if (typing || !budgetKey || (e.key !== '[' && e.key !== ']')) return;
      // Read from the store, not the render's closure: two quick presses must both count.
      const s = useApp.getState();
      const spec = strategy.params.find((p) => p.key === budgetKey);
      const current = Number(s.windowParams[strategy.id]?.[budgetKey] ?? spec?.default ?? 0);
      setParam(budgetKey, nudged(current, budgetHigh(basisTotal), e.key === ']'));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [budgetKey, strategy, basisTotal, setParam]);

  const showPreview = async () => {
    if (!openPath) return;
    setPreviewError(undefined);
    try {
      const clean = Object.fromEntries(Object.entries(params).filter(([, v]) => ['number', 'string', 'boolean'].includes(typeof v) || v === null)) as Record<string, number | string | boolean | null>;
      const r = await request('window:preview', { path: openPath, conversation: useApp.getState().openConversationIndex, model, strategy: strategy.id, params: clean });
      setPreview({ text: r.text, tokens: r.tokens, shape: r.shape, messages: r.messages, system: r.system, compactions: r.compactions, notes: r.notes });
    } catch (e) {
      setPreviewError((e as Error).message);
    }
  };

  return (
    <aside className="window-panel" aria-label="Context window" data-testid="window-panel">
      <div className="panel-head">
        <h2>Window</h2>
        <button className="close" onClick={() => toggleWindow(false)} aria-label="Close the window panel (W)">×</button>
      </div>
      <label className="param" htmlFor="strategy">
        strategy
        <select id="strategy" value={strategyId} onChange={(e) => setStrategy(e.target.value)} data-testid="strategy">
          {strategies.list().map((s) => <option key={s.id} value={s.id}>{s.label}</option>)}
        </select>
      </label>
      <p className="muted small">{strategy.description}</p>
      {strategy.params.map((spec) => (
        <ParamControl key={spec.key} spec={spec} value={params[spec.key]} total={basisTotal} messages={skeleton?.count ?? 0} onChange={(v) => setParam(spec.key, v)} />
      ))}
      {!plan ? (
        <p className="loading">Waiting for token counts…</p>
      ) : (
        <>
          <div className="plan-totals" data-testid="plan-totals" aria-live="polite">
            <strong data-testid="total-before">{formatNumber(plan.totalBefore)}</strong> →{' '}
            {/* Over its budget: said in colour and on hover, and in words to a screen reader; nothing moves. */}
            <strong data-testid="total-after" className={over ? 'over' : undefined} title={overWarning ? overWarning.message : over ? `${formatNumber(plan.totalAfter - budget!)} tok over the budget of ${formatNumber(budget!)}` : undefined}>
              {formatNumber(plan.totalAfter)}
            </strong>
            {over && <span className="sr-only" data-testid="over-budget"> (over the budget)</span>} tok
            {plan.unit === 'rendered' ? (
              <div className="muted small" data-testid="plan-basis">
                of the rendered history: each message as <code>[time] role: content</code>, {skeleton?.swarms === false ? 'the swarms history string’s rendering, applied to this file' : 'what the swarms history string sends'}. The contents alone are {formatNumber(counts?.total ?? 0)} tok, the header&apos;s figure.
              </div>
            ) : (
              <span className="muted" data-testid="plan-basis"> of message contents, the header&apos;s figure</span>
            )}
            <div className="fate-counts">
              <span data-testid="count-kept">{formatNumber(plan.counts.kept)} kept</span> · <span data-testid="count-dropped">⨯ {formatNumber(plan.counts.dropped)} dropped</span> · <span>✂ {formatNumber(plan.counts.cut)} cut</span> · <span>Σ {formatNumber(plan.counts.summarised)} summarised</span>
            </div>
            {/* Always there for a strategy that summarises: the chart below stays put as a slider moves. */}
            {(strategy.summarises || plan.inserted.length > 0) && (
              <div className="muted small inserted-line" data-testid="plan-inserted">
                {plan.inserted.length === 0 ? 'the plan writes no summary of its own at these settings' : `+ ${formatNumber(plan.inserted.length)} summary ${plan.inserted.length === 1 ? 'message; its tokens count once its text exists' : 'messages; their tokens count once their text exists'}`}
              </div>
            )}
            {/* A history through a compaction is planned as the model was sent it: from the compaction's summary on. */}
            {plan.compactedBefore !== undefined && (
              <div className="muted small" data-testid="plan-compacted">
                Σ {formatNumber(plan.compactedBefore)} {plan.compactedBefore === 1 ? 'message' : 'messages'} before the compaction at #{formatNumber(plan.compactedBefore)}: the model was sent its summary in their place, and this plan starts there
              </div>
            )}
          </div>
          {counts && <CumulativeChart plan={plan} tokens={plan.unit === 'rendered' ? counts.renderedTokens : counts.tokens} budget={budget} onSelect={select} />}
          <ChartLegend />
          <button className="link small" onClick={() => setLarge(true)} data-testid="enlarge-chart">⤢ larger view</button>
          {skeleton && counts && <PlanCharts plan={plan} skeleton={skeleton} counts={counts} onSelect={select} />}
          {skeleton && counts && skeleton.usage.at.length > 1 && <ContextCurve skeleton={skeleton} input={cachedPlanSkeleton(skeleton, counts)} strategy={strategy} params={params} />}
          {skeleton && counts && <TurnScrubber skeleton={skeleton} input={cachedPlanSkeleton(skeleton, counts)} strategy={strategy} params={params} current={plan} onSelect={select} />}
          {/* The warnings of the turn shown (the scrubber's), not of the last one, when the run is scrubbed back. */}
          {(turnView?.plan ?? plan).warnings.length > 0 && (
            <ul className="warnings" aria-label={turnView ? `Warnings at turn ${turnView.turn}` : 'Warnings'} data-testid="plan-warnings" data-turn={turnView?.turn}>
              {turnView && <li className="muted small">At turn {formatNumber(turnView.turn)}:</li>}
              {(turnView?.plan ?? plan).warnings.slice(0, 8).map((w) => (
                <li key={`${w.code}-${w.index}`} data-index={w.index}>
                  <button className={w.code === 'approximate-cut' ? 'link muted' : 'link'} onClick={() => select(w.index)}>
                    {w.code === 'approximate-cut' ? `✂ message ${w.index} is cut; select it to see where (the detail pane dims what is not sent)` : `⚠ ${w.message}`}
                  </button>
                </li>
              ))}
              {(turnView?.plan ?? plan).warnings.length > 8 && <li className="muted">and {(turnView?.plan ?? plan).warnings.length - 8} more</li>}
            </ul>
          )}
          <button className="action" onClick={() => void showPreview()} data-testid="show-preview">What the model sees</button>
          <button className="action" onClick={() => setLanes(true)} data-testid="show-lanes">Compare strategies…</button>
          {previewError && <p className="error-text">{previewError}</p>}
          <CompactSection strategy={strategy.id} params={params} />
        </>
      )}
      {lanes && <CompareLanes onClose={() => setLanes(false)} />}
      {large && plan && counts && (
        <div className="dialog" role="dialog" aria-modal="true" aria-label="The cut, larger" onKeyDown={closeOnEscape(() => setLarge(false))} onClick={() => setLarge(false)}>
          <div className="dialog-body wide chart-large" onClick={(e) => e.stopPropagation()} data-testid="chart-large">
            <div className="panel-head">
              <h2>
                {strategy.label}: {formatNumber(plan.totalBefore)} → {formatNumber(plan.totalAfter)} tok ({plan.unit === 'rendered' ? 'rendered history' : 'message contents'})
              </h2>
              <button autoFocus onClick={() => setLarge(false)} aria-label="Close">×</button>
            </div>
            <CumulativeChart plan={plan} tokens={plan.unit === 'rendered' ? counts.renderedTokens : counts.tokens} budget={budget} onSelect={(i) => { setLarge(false); select(i); }} />
            {skeleton && <FateStrip fates={plan.fates} n={skeleton.count} onSelect={(i) => { setLarge(false); select(i); }} label="The conversation by fate" />}
            <ChartLegend />
          </div>
        </div>
      )}
      {preview && <PreviewDialog preview={preview} onClose={() => setPreview(undefined)} />}
    </aside>
  );
}

const SHAPES: Record<string, string> = {
  'anthropic-messages': 'the Messages API request',
  'openai-responses': 'the Responses API request’s input items',
  'openai-chat': 'the chat request’s messages',
};

/** What the preview's body is, and what of a real request the file does not hold. */
function requestLabel(shape: string, messages: number, system: boolean | undefined): string {
  const noun = shape === 'openai-responses' ? 'item' : 'message';
  const held = system === undefined ? 'the instructions, if the session has any, go apart and are not shown' : system ? 'its system prompt as the file holds it' : 'no system prompt (the file holds none)';
  return `${SHAPES[shape] ?? shape}: ${formatNumber(messages)} ${noun}${messages === 1 ? '' : 's'}, ${held}; message contents counted, as in the panel`;
}

type Preview = { text: string; tokens: number; shape?: string; messages: number; system?: boolean; compactions?: number; notes?: string[] };

/** The request as the agent's API takes it: modal, the keyboard kept inside, focus back where it was on close. */
function PreviewDialog({ preview, onClose }: { preview: Preview; onClose(): void }) {
  const dialog = useModalFocus<HTMLDivElement>();
  return (
    <div ref={dialog} className="dialog" role="dialog" aria-modal="true" aria-label="What the model sees" onKeyDown={closeOnEscape(onClose)}>
      <div className="dialog-body">
        <div className="panel-head">
          <h2>
            What the model sees · {formatNumber(preview.tokens)} tokens
            {preview.shape && preview.shape !== 'swarms-history' && <span className="muted"> · {requestLabel(preview.shape, preview.messages, preview.system)}</span>}
          </h2>
          <span className="spacer" />
          <button onClick={() => void navigator.clipboard?.writeText(preview.text)}>Copy</button>
          <button autoFocus onClick={() => onClose()} aria-label="Close">×</button>
        </div>
        {preview.compactions ? (
          <p className="banner" role="note" data-testid="preview-spans-compaction">
            These messages run through {preview.compactions === 1 ? 'a compaction' : `${formatNumber(preview.compactions)} compactions`}: the agent never sent them as one request. “Show what the model is sent now” in the bar above gives the request since the last one.
          </p>
        ) : null}
        {preview.notes?.map((n) => (
          <p key={n} className="muted small" role="note" data-testid="preview-note">
            {n}
          </p>
        ))}
        <pre className="content" data-testid="preview-text">{preview.text || '(nothing)'}</pre>
      </div>
    </div>
  );
}
