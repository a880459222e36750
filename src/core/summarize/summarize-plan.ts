import type { Message } from '../message.js';
import type { WindowPlan } from '../window/types.js';
import type { SummarizeOptions, Summarizer } from './types.js';

/**
 * The summary text for every message a plan inserts, in order. All summaries are produced before anything is
 * applied, so a failing summarizer leaves the history untouched.
 */
export async function summariesForPlan(messages: readonly Message[], plan: WindowPlan, summarizer: Summarizer, options: SummarizeOptions = {}): Promise<string[]> {
  const out: string[] = [];
  for (const inserted of plan.inserted) {
    out.push(await summarizer.summarize(inserted.replaces.map((i) => messages[i]), options));
  }
  return out;
}
