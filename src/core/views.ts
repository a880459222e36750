import type { Codec } from './formats/codec.js';
import { displayText, partText, sentText, toolLinksOf, type MessageView } from './formats/model.js';
import { FATE_CODE } from './window/types.js';
import type { Measure, SkeletonMessage, WindowPlan, WindowSkeleton } from './window/types.js';
import { RENDER_SEPARATOR } from './window/skeleton.js';

/**
 * Messages of any format seen through their parts: what is counted, planned and rendered for them. The swarms
 * class keeps its own content-only rules (spec); everything else (the app, the CLI on any file) uses these.
 */

export interface MessageTokens {
  /** What the model is sent for the message: its text, tool calls (names and arguments) and tool results. */
  tokens: number;
  /** Of `tokens`, the tool calls'. */
  toolTokens: number;
  /** Reasoning the message carries in plain text, counted apart and labelled (not in `tokens`). */
  reasoningTokens: number;
}


export function toolCallText(view: MessageView): string {
  return view.parts
    .filter((p) => p.kind === 'tool-call')
    .map((p) => partText(p))
    .join('\n');
}

/** The texts a message's tokens are counted from: each part on its own (joining them would merge tokens). */
export function partTexts(view: MessageView): { sent: string[]; tools: string[]; reasoning: string[] } {
  const sent: string[] = [];
  const tools: string[] = [];
  const reasoning: string[] = [];
  for (const p of view.parts) {
    const t = partText(p);
    // White space is sent and counted ("\n\n" is a token); only nothing is nothing.
    if (t === '') continue;
    if (p.kind === 'reasoning') reasoning.push(t);
    else {
      sent.push(t);
      if (p.kind === 'tool-call') tools.push(t);
    }
  }
  return { sent, tools, reasoning };
}

const sum = (measure: Pick<Measure, 'count'>, texts: readonly string[]) => texts.reduce((n, t) => n + measure.count(t), 0);

/** A message's tokens: each part counted on its own; tool calls' share; reasoning apart. */
export function countView(view: MessageView, measure: Pick<Measure, 'count'>): MessageTokens {
  const { sent, tools, reasoning } = partTexts(view);
  return { tokens: sum(measure, sent), toolTokens: sum(measure, tools), reasoningTokens: sum(measure, reasoning) };
}

/** The history block of a message, as "what the model sees" shows it: `[timestamp] role: text`. */
export function renderViewBlock(view: MessageView): string {
  const text = sentText(view);
  return `${view.timestamp ? `[${view.timestamp}] ` : ''}${view.role}: ${text}`;
}

const STATIC_ROLES = new Set(['system']);

/** The leading system messages (and summaries a compaction wrote) of a conversation: its static context. */
export function staticViewPrefix(views: readonly MessageView[]): number {
  let n = 0;
  while (n < views.length && (STATIC_ROLES.has(views[n].normalRole) || views[n].summary)) n++;
  return n;
}

/**
 * A conversation's tool calls and results linked: by the ids the file gives; where it gives none (swarms tool
 * messages, ShareGPT turns), a call gets `call_<message>_<k>` and a result answers the oldest call still
 * unanswered. Views without such parts are returned as they are.
 */
export function linkToolParts(views: readonly MessageView[]): MessageView[] {
  const pending: string[] = [];
  return views.map((v, i) => {
    if (!v.parts.some((p) => p.kind === 'tool-call' || p.kind === 'tool-result')) return v;
    let changed = false;
    let k = 0;
    const parts = v.parts.map((p) => {
      if (p.kind === 'tool-call') {
        const id = p.id ?? `call_${i}_${k}`;
        k++;
        pending.push(id);
        if (p.id) return p;
        changed = true;
        return { ...p, id };
      }
      if (p.kind === 'tool-result') {
        if (p.callId) {
          const at = pending.indexOf(p.callId);
          if (at !== -1) pending.splice(at, 1);
          return p;
        }
        const id = pending.shift();
        if (id === undefined) return p;
        changed = true;
        return { ...p, callId: id };
      }
      return p;
    });
    return changed ? { ...v, parts } : v;
  });
}

/** A planner skeleton of any format's messages, counted with `measure` unless counts are given. */
export function buildViewSkeleton(given: readonly MessageView[], measure: Measure, counts?: { tokens: readonly number[]; renderedTokens?: readonly number[] }): WindowSkeleton {
  const views = linkToolParts(given);
  const staticEnd = staticViewPrefix(views);
  const texts = views.map(sentText);
  const blocks = views.map(renderViewBlock);
  const messages: SkeletonMessage[] = views.map((v, i) => {
    const links = toolLinksOf(v);
    return {
      role: v.role,
      tokens: counts?.tokens[i] ?? countView(v, measure).tokens,
      renderedTokens: counts?.renderedTokens?.[i] ?? measure.count(i === views.length - 1 ? blocks[i] : blocks[i] + RENDER_SEPARATOR),
      length: texts[i].length,
      toolCallIds: links.callIds,
      toolResultId: links.resultId,
      toolLike: links.toolLike,
      isStatic: i < staticEnd,
      contentIsString: v.parts.every((p) => p.kind === 'text'),
      ...(v.compaction || v.summary ? { startsPart: true } : {}),
    };
  });
  return { messages, text: { content: (i) => texts[i], block: (i) => blocks[i], measure } };
}

/**
 * The records a plan leaves, for any format: kept ones as they are, a cut one with its text cut (where the
 * format can set its text; else whole), summaries as new records of the format before the message they precede.
 */
/**
 * `sent`: the records the model is sent after the plan (a preview), not what the file holds once compacted
 * (Claude Code keeps the history before its boundary in the file; the model is sent only what follows it).
 */
export function applyPlanToRecords(codec: Codec, records: readonly unknown[], views: readonly MessageView[], plan: WindowPlan, summaries: readonly string[], options: { sent?: boolean } = {}): unknown[] {
  const inserted = new Map<number, unknown[]>();
  plan.inserted.forEach((ins, k) => {
    const near = records[Math.min(ins.before, records.length - 1)];
    const record = codec.fromView({ role: 'system', normalRole: 'system', parts: [{ kind: 'text', text: summaries[k] ?? '' }], summary: true }, near);
    const list = inserted.get(ins.before);
    if (list) list.push(record);
    else inserted.set(ins.before, [record]);
  });
  const out: unknown[] = [];
  const push = (at: number) => {
    for (const r of inserted.get(at) ?? []) out.push(r);
  };
  records.forEach((r, i) => {
    push(i);
    const fate = plan.fates[i];
    if (fate === FATE_CODE.kept) out.push(r);
    else if (fate === FATE_CODE.cut) {
      const cut = plan.cuts[i];
      const text = sentText(views[i]);
      const kept = cut ? (cut.keep === 'start' ? text.slice(0, cut.offset) : text.slice(cut.offset)) : text;
      out.push(codec.withText(r, kept) ?? r);
    }
  });
  push(records.length);
  if (codec.compact && plan.inserted.length > 0 && !options.sent) {
    const summaryRecords = new Set<unknown>();
    for (const list of inserted.values()) for (const r of list) summaryRecords.add(r);
    return codec.compact(records, out, summaryRecords, { tokensBefore: plan.totalBefore });
  }
  return out;
}

export { displayText };
