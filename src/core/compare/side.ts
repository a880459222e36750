import { compactionText, reasoningText, sentText, type MessageView } from '../formats/model.js';
import { addUp, costOf } from '../usage.js';
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

/** A prompt of the user's: what begins a turn (a tool result or a line the tool wrote does not). */
export function isPrompt(view: MessageView): boolean {
  return view.normalRole === 'user' && !view.meta && !view.parts.some((p) => p.kind === 'tool-result');
}

/**
 * Per message, the model call whose reported usage it carries: each call once, on the first message that
 * reports it (as reportedUsage counts them), so that the rows' costs add up to the side's.
 */
export function callUsages(views: readonly MessageView[]): Array<NonNullable<MessageView['usage']> | undefined> {
  const seen = new Set<string>();
  return views.map((v) => {
    const u = v.usage;
    if (!u) return undefined;
    if (u.key !== undefined) {
      if (seen.has(u.key)) return undefined;
      seen.add(u.key);
    }
    return u.model || !v.model ? u : { ...u, model: v.model };
  });
}

/**
 * A side of a comparison from the messages it shows, with their tokens (counted by the caller, one tokenizer
 * for both sides): each message's cost is its call's at list prices, where the file reports usage and the
 * model has a price.
 */
export function compareSide(views: readonly MessageView[], tokens: readonly number[]): CompareMessage[] {
  const calls = callUsages(views);
  return views.map((v, i) => {
    const m: CompareMessage = { role: v.role, normalRole: v.normalRole, text: compareText(v), tokens: tokens[i] ?? 0, prompt: isPrompt(v) };
    const call = calls[i];
    if (call) {
      const report = addUp([call]);
      const cost = report ? costOf(report) : undefined;
      if (cost && cost.unpriced.length === 0) m.cost = cost.usd;
    }
    return m;
  });
}
