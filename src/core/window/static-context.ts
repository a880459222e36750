import { booleanParam, PlanBuilder } from './plan-builder.js';
import { messagesFrom } from './token-columns.js';
import { FATE_CODE, type ParamSpec, type PlanWarning, type WindowPlan, type WindowSkeleton } from './types.js';

/** How many messages the static context is: the system prompt, rules and memory at the start, and a summary a compaction left there. */
export function staticLength(skeleton: WindowSkeleton): number {
  let n = 0;
  while (n < skeleton.messages.length && skeleton.messages[n].isStatic) n++;
  return n;
}

/** The "keep the static context" parameter, on by default where the framework keeps its system prompt. */
export function keepStaticParam(byDefault: boolean): ParamSpec {
  return {
    key: 'keepStatic',
    label: 'Keep the system prompt',
    kind: 'boolean',
    default: byDefault,
    help: byDefault
      ? 'The system prompt, rules and memory at the start (and a summary a compaction left there) stay whatever the window; the framework keeps them apart from the messages'
      : 'The swarms history string really drops them when it trims from the front; on, they stay and the rest is trimmed in the budget left',
  };
}

export function keepsStatic(params: Record<string, unknown>, byDefault: boolean): boolean {
  return booleanParam(params, 'keepStatic', byDefault);
}

/** A warning for each static message a plan drops or cuts: losing the system prompt should never go unnoticed. */
export function staticWarnings(plan: WindowPlan, skeleton: WindowSkeleton): PlanWarning[] {
  const out: PlanWarning[] = [];
  const n = staticLength(skeleton);
  for (let i = 0; i < n; i++) {
    const fate = plan.fates[i];
    if (fate === FATE_CODE.dropped || fate === FATE_CODE.cut) {
      out.push({ code: 'static-dropped', index: i, message: `message ${i} (${skeleton.messages[i].role}, static context) is ${fate === FATE_CODE.cut ? 'cut' : 'dropped'}: the model would not see all of its instructions` });
    }
  }
  return out;
}

/**
 * A plan of the messages after the static context, in the budget they leave, with the static context kept:
 * `planRest` plans a skeleton of the rest; its fates and warnings are moved to their places in the whole.
 */
export function planAfterStatic(skeleton: WindowSkeleton, unit: WindowPlan['unit'], planRest: (rest: WindowSkeleton, used: number) => WindowPlan, strategy: string, echo: Record<string, unknown>): WindowPlan {
  const s = staticLength(skeleton);
  const m = skeleton.messages;
  const b = new PlanBuilder(m, unit);
  b.keepRange(0, s);
  let used = 0;
  for (let i = 0; i < s; i++) used += b.tokensOf(i);
  const text = skeleton.text;
  const rest: WindowSkeleton = {
    messages: messagesFrom(m, s),
    text: text && { content: (i) => text.content(i + s), block: (i) => text.block(i + s), measure: text.measure },
  };
  const sub = planRest(rest, used);
  b.placeAt(s, sub);
  const warnings = sub.warnings.map((w) => ({ ...w, index: w.index + s, message: w.message.replace(/\bmessage (\d+)/g, (_, k: string) => `message ${Number(k) + s}`) }));
  // A rest trimmed inside its rendered text keeps saying where (after the static blocks, sent whole).
  const plan = b.finish(strategy, echo, [], warnings, sub.renderedStart === undefined ? {} : { renderedStart: sub.renderedStart, renderedFrom: s + (sub.renderedFrom ?? 0) });
  // A total the rest's planner verified by a count stays verified: the static context adds its own tokens.
  plan.totalAfter = used + sub.totalAfter;
  return plan;
}
