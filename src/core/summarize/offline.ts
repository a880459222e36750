import type { Message } from '../message.js';
import type { Measure } from '../window/types.js';
import { best, candidates, type Sentence } from './salience.js';
import { summaryItemOf, type SummaryItem } from './summary-items.js';
import { toolActivity, toolLine } from './tool-activity.js';
import type { Summarizer } from './types.js';

export interface ExtractiveOptions {
  measure: Measure;
  /** The summary stays within this many tokens (default 400). */
  maxTokens?: number;
  /** How to read a message (default: as a swarms or OpenAI-shaped message); the app reads other formats by their views. */
  describe?: (m: Message) => SummaryItem;
}

const quote = (s: Sentence | undefined) => (s ? `"${s.text}"` : '');

/** One line for messages [from, to) of the range: its most telling request and the assistant's most telling answer. */
function segmentLine(items: readonly SummaryItem[], from: number, to: number, cap: number, told: Set<string>): string {
  const where = to - from === 1 ? `Message ${from + 1}` : `Messages ${from + 1}–${to}`;
  // No room for words: the line still says which messages the summary stands for.
  if (cap === 0) return `- ${where}: …`;
  // A sentence an earlier line already quotes tells nothing new (agents repeat themselves): others first.
  const all = candidates(items, from, to).map((s) => ({ ...s, score: told.has(s.text) ? s.score - 4 : s.score, text: s.text.length > cap ? s.text.slice(0, cap - 1) + '…' : s.text }));
  const asked = best(all, (s) => items[s.at].kind === 'request');
  // The answer quoted is the one to that request (its turn, up to the next request) where it has one.
  let turnEnd = to;
  if (asked) for (let i = asked.at + 1; i < to; i++) if (items[i].kind === 'request') { turnEnd = i; break; }
  const said =
    (asked && best(all, (s) => items[s.at].kind === 'answer' && s.at > asked.at && s.at < turnEnd)) ||
    best(all, (s) => items[s.at].kind === 'answer') ||
    best(all, (s) => items[s.at].kind === 'system');
  const parts: string[] = [];
  for (const s of [asked, said]) if (s) told.add(s.text);
  if (asked) parts.push(`user: ${quote(asked)}`);
  if (said) parts.push(`${items[said.at].kind === 'system' ? 'system' : 'assistant'}: ${quote(said)}`);
  if (parts.length === 0) {
    // Only tools spoke here: what they were, or what the first of them answered.
    const tools = toolLine(toolActivity(items.slice(from, to)), 3);
    const answered = best(all, (s) => items[s.at].kind === 'result');
    parts.push(tools ? tools.replace(/^Tools: /, 'tool calls ').replace(/\.$/, '') : answered ? `tool result: ${quote(answered)}` : 'no text');
  }
  return `- ${where}: ${parts.join(' → ')}`;
}

/**
 * An offline, deterministic summary of the whole range, within the token budget: a line per segment (the
 * range cut into as many contiguous parts as the budget allows, so that every part of it is told), each with
 * the segment's most telling user request and assistant answer or decision, chosen by salience; and the tools
 * the range used, named with how often they failed. No model, no network: the same input gives the same text.
 */
export class ExtractiveSummarizer implements Summarizer {
  readonly name = 'offline extractive summary';
  private readonly measure: Measure;
  private readonly maxTokens: number;
  private readonly describe: (m: Message) => SummaryItem;

  constructor(options: ExtractiveOptions) {
    this.measure = options.measure;
    this.maxTokens = options.maxTokens ?? 400;
    this.describe = options.describe ?? summaryItemOf;
  }

  async summarize(messages: readonly Message[]): Promise<string> {
    return this.summarizeSync(messages);
  }

  summarizeSync(messages: readonly Message[]): string {
    const items = messages.map((m) => this.describe(m));
    const n = items.length;
    const header = `Summary of ${n.toLocaleString('en')} earlier message${n === 1 ? '' : 's'}:`;
    if (n === 0) return header;
    const uses = toolActivity(items);
    const render = (segments: number, cap: number, tools: number) => {
      const lines = [header];
      const line = toolLine(uses, tools);
      if (line) lines.push(line);
      const told = new Set<string>();
      for (let j = 0; j < segments; j++) lines.push(segmentLine(items, Math.floor((j * n) / segments), Math.floor(((j + 1) * n) / segments), cap, told));
      return lines.join('\n');
    };
    const fits = (text: string) => this.measure.count(text) <= this.maxTokens;
    // The most segments that fit (a segment line is some 20 to 90 tokens), found by halving.
    let lo = 1;
    let hi = Math.max(1, Math.min(n, Math.floor(this.maxTokens / 20)));
    if (!fits(render(1, 200, 8))) hi = 0;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(render(mid, 200, 8))) lo = mid;
      else hi = mid - 1;
    }
    if (hi >= 1) return render(lo, 200, 8);
    // A budget too small for one full line: shorter quotes, fewer tools, then the header alone.
    for (const [cap, tools] of [[100, 3], [50, 1], [24, 0], [0, 0]] as const) {
      const text = render(1, cap, tools);
      if (fits(text)) return text;
    }
    return header;
  }
}

/** Text the user wrote. */
export class TextSummarizer implements Summarizer {
  readonly name = 'your text';
  constructor(private readonly text: string) {}
  async summarize(): Promise<string> {
    return this.text;
  }
}
