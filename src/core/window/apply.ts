import { contentText, type Message } from '../message.js';
import { FATE_CODE, type Measure, type WindowPlan } from './types.js';

export interface ApplyOptions {
  /** Text for each inserted summary, in order; required when the plan inserts any. */
  summaries?: readonly string[];
  /** Refreshes `token_count` of cut messages that carry one (and of summaries when `countTokens`). */
  measure?: Measure;
  countTokens?: boolean;
}

export class PlanApplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanApplyError';
  }
}

function recount(message: Message, options: ApplyOptions): Message {
  if (options.measure && (message.token_count !== undefined || options.countTokens)) {
    const text = contentText(message.content);
    message.token_count = text.trim().length === 0 ? 0 : options.measure.count(text);
  }
  return message;
}

/** The message list a plan leaves: kept messages as they are, cut ones shortened, summaries inserted. */
export function applyPlan(messages: readonly Message[], plan: WindowPlan, options: ApplyOptions = {}): Message[] {
  if (plan.fates.length !== messages.length) {
    throw new PlanApplyError(`the plan is for ${plan.fates.length} messages but the history has ${messages.length}`);
  }
  const summaries = options.summaries ?? [];
  if (summaries.length < plan.inserted.length) {
    throw new PlanApplyError(`the plan inserts ${plan.inserted.length} summary message(s) but ${summaries.length} summary text(s) were given`);
  }
  const insertedAt = new Map<number, Message[]>();
  plan.inserted.forEach((ins, k) => {
    const msg = recount({ role: ins.role, content: summaries[k] }, options);
    const list = insertedAt.get(ins.before);
    if (list) list.push(msg);
    else insertedAt.set(ins.before, [msg]);
  });
  const out: Message[] = [];
  const pushInserted = (at: number) => {
    for (const msg of insertedAt.get(at) ?? []) out.push(msg);
  };
  messages.forEach((m, i) => {
    pushInserted(i);
    const fate = plan.fates[i];
    const cut = plan.cuts[i];
    if (fate === FATE_CODE.kept) out.push(m);
    else if (fate === FATE_CODE.cut && cut) {
      const text = contentText(m.content);
      const content = cut.keep === 'start' ? text.slice(0, cut.offset) : text.slice(cut.offset);
      out.push(recount({ ...m, content }, options));
    }
  });
  pushInserted(messages.length);
  return out;
}
