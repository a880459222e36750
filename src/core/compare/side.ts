import { compactionText, reasoningText, sentText, type MessageView } from '../formats/model.js';
import { addUp, callsOf, costOf } from '../usage.js';
import type { CompareMessage } from './compare.js';

/**
 * What a message is compared by: what it says (text, tool calls and results), its reasoning marked as such, a
 * compaction boundary in words. Two messages are the same when this and their role are.
 */
export function compareText(view: MessageView): string {
  const out: string[] = [];
  if (view.compaction) out.push(compactionText(view.compaction));
  const reasoning = reasoningText(view);
  if (reasoning) out.push(`[reasoning] ${reasoning}`);
  const sent = sentText(view);
  if (sent) out.push(sent);
  return out.join('\n');
}

/** A prompt of the user's (a tool result or a line the tool wrote is not one). */
export function isPrompt(view: MessageView): boolean {
  return view.normalRole === 'user' && !view.meta && !view.parts.some((p) => p.kind === 'tool-result');
}

/**
 * The messages as the model had them: the lines of one response (Claude Code writes a line per content
 * block, each with the response's `message.id`, which the codec keeps as its usage's key) are one message,
 * the model's reply to one call. Each group is [start, end) of `views`.
 */
export function callGroups(views: readonly MessageView[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < views.length; i++) {
    const last = out[out.length - 1];
    const key = views[i].normalRole === 'assistant' ? views[i].usage?.key : undefined;
    const prev = last ? views[last[1] - 1] : undefined;
    if (last && key !== undefined && prev?.normalRole === 'assistant' && prev.usage?.key === key) last[1] = i + 1;
    else out.push([i, i + 1]);
  }
  return out;
}

export interface SideOptions {
  /** The model a call that names none is priced at, for an estimate (the session's, or the one counted for). */
  model?: string;
}

/**
 * A side of a comparison from the messages it shows, with their tokens (counted by the caller, one tokenizer
 * for both sides). A response's lines are one message (see callGroups). Each reply's cost is its call's at
 * list prices: as the file reports its usage (the call's last line: its final figures), or where it reports
 * none, estimated from the tokens counted here (everything before it sent, the reply written) and marked so.
 */
export function compareSide(views: readonly MessageView[], tokens: readonly number[], options: SideOptions = {}): CompareMessage[] {
  const groups = callGroups(views);
  const groupOf = new Int32Array(views.length);
  groups.forEach(([s, e], g) => groupOf.fill(g, s, e));
  const reported = new Map<number, NonNullable<MessageView['usage']>>();
  for (const call of callsOf(views)) reported.set(groupOf[call.at], call.usage);
  let sent = 0;
  return groups.map(([s, e], g) => {
    const first = views[s];
    let count = 0;
    for (let i = s; i < e; i++) count += tokens[i] ?? 0;
    const text = views.slice(s, e).map(compareText).join('\n');
    const m: CompareMessage = { role: first.role, normalRole: first.normalRole, text, tokens: count, prompt: isPrompt(first), at: s, lines: e - s };
    if (first.id !== undefined) m.id = first.id;
    const usage = reported.get(g);
    if (usage) {
      const report = addUp([usage]);
      const cost = report ? costOf(report) : undefined;
      if (cost && cost.unpriced.length === 0) m.cost = cost.usd;
    } else if (first.normalRole === 'assistant') {
      const model = views.slice(s, e).find((v) => v.model)?.model ?? options.model;
      const report = model ? addUp([{ input: sent, output: count, model }]) : undefined;
      const cost = report ? costOf(report) : undefined;
      if (cost && cost.unpriced.length === 0) {
        m.cost = cost.usd;
        m.costEstimated = true;
      }
    }
    sent += count;
    return m;
  });
}
