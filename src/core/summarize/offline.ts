import type { Message } from '../message.js';
import type { Measure } from '../window/types.js';
import { salience, sentencesOf } from './salience.js';
import { summaryItemOf, type SummaryItem } from './summary-items.js';
import { contentWords, WordProbabilities } from './sumbasic.js';
import { toolActivity, toolLine } from './tool-activity.js';
import { SummarizerError, type Summarizer } from './types.js';

export interface ExtractiveOptions {
  measure: Measure;
  /**
   * The summary stays within this many tokens. Default: 5% of the range's tokens, at least 400 and at most
   * 4,000, so that a long range is told at a useful length.
   */
  maxTokens?: number;
  /** How to read a message (default: as a swarms or OpenAI-shaped message); the app reads other formats by their views. */
  describe?: (m: Message) => SummaryItem;
  /**
   * A range too short to be summarised in fewer tokens than its own is refused (SummarizerError 'grows')
   * rather than given a summary that would grow the history. Default: such a summary is given, and the
   * caller, which sees what the history costs before and after, says so.
   */
  refuseLonger?: boolean;
  /**
   * What each message of the range is numbered where the reader sees it (the app's table numbers from 0, and a
   * range may start anywhere): lines and quotes say `#12`. Default: the range's own order, `Message 1` on.
   */
  numbers?: readonly number[];
}

/** The default budget: 5% of the range's tokens, between 400 and 4,000. */
export function defaultSummaryBudget(rangeTokens: number): number {
  return Math.min(4000, Math.max(400, Math.round(rangeTokens * 0.05)));
}

interface Sentence {
  text: string;
  /** The message it comes from (an index into the range). */
  at: number;
  kind: SummaryItem['kind'];
  /** Its distinct content words (SumBasic's units). */
  words: string[];
  /** How much its speaker and form make it worth telling: 2^(salience/2). */
  worth: number;
  /** Its text folded (case, spaces, end punctuation): the same sentence said again has the same key. */
  key: string;
}

/** What the summary reads of a range, once: its messages, their sentences, where the user spoke. */
interface Reading {
  items: readonly SummaryItem[];
  sentences: Sentence[];
  /** sentences[first[i]] … sentences[first[i + 1] - 1] are message i's. */
  first: number[];
  /** The messages that are a user's request, in order. */
  requests: number[];
}

function read(items: readonly SummaryItem[]): Reading {
  const sentences: Sentence[] = [];
  const first: number[] = [];
  const requests: number[] = [];
  items.forEach((item, at) => {
    first.push(sentences.length);
    if (item.kind === 'request') requests.push(at);
    sentencesOf(item.text).forEach((text, k) =>
      sentences.push({
        text,
        at,
        kind: item.kind,
        words: item.kind === 'result' ? [] : contentWords(text),
        worth: 2 ** (salience(text, item, k === 0) / 2),
        key: text.toLowerCase().replace(/\s+/g, ' ').replace(/[\s.!?…]+$/u, ''),
      }),
    );
  });
  first.push(sentences.length);
  return { items, sentences, first, requests };
}

/**
 * Where the range is cut into `count` contiguous segments: at equal steps, each cut moved to the nearest
 * user request within a quarter of a segment, so that a segment starts with what the user asked.
 */
function boundaries(n: number, count: number, requests: readonly number[]): number[] {
  const out = [0];
  const slack = Math.floor(n / count / 4);
  let r = 0;
  for (let j = 1; j < count; j++) {
    const even = Math.floor((j * n) / count);
    const lo = Math.max(out[j - 1] + 1, even - slack);
    const hi = Math.min(n - (count - j), even + slack);
    while (r < requests.length && requests[r] < lo) r++;
    let at = Math.max(even, lo);
    let near = Infinity;
    for (let k = r; k < requests.length && requests[k] <= hi; k++) {
      const d = Math.abs(requests[k] - even);
      if (d < near) [at, near] = [requests[k], d];
      else break;
    }
    out.push(at);
  }
  out.push(n);
  return out;
}

/**
 * How specific a word is to the segments it occurs in: log((segments + 1) / segments it occurs in), an inverse
 * document frequency over the segments. Chatter ("sounds good", "let me check") is said in every stretch of a
 * long range and weighs next to nothing; a file or identifier worked on in one stretch weighs most there. With
 * one segment every word weighs the same (plain SumBasic).
 */
function specificityOver(reading: Reading, cuts: readonly number[]): (word: string) => number {
  const df = new Map<string, number>();
  for (let j = 0; j + 1 < cuts.length; j++) {
    const seen = new Set<string>();
    for (let k = reading.first[cuts[j]]; k < reading.first[cuts[j + 1]]; k++) for (const w of reading.sentences[k].words) seen.add(w);
    for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const segments = cuts.length - 1;
  return (word) => Math.log((segments + 1) / (df.get(word) ?? 1));
}

/** What the lines told so far: each word how many times (SumBasic squares it each time), and each sentence. */
interface Told {
  words: Map<string, number>;
  sentences: Set<string>;
}

/** No sentence: weighs nothing. */
const NONE: Sentence = { text: '', at: -1, kind: 'answer', words: [], worth: 0, key: '' };

/** The best sentence by `weigh`, the earliest of equals (the same input always gives the same pick). */
function best(sentences: readonly Sentence[], weigh: (s: Sentence) => number): Sentence | undefined {
  let top: Sentence | undefined;
  let topWeight = 0;
  for (const s of sentences) {
    const w = weigh(s);
    if (w > 0 && (!top || w > topWeight)) [top, topWeight] = [s, w];
  }
  return top;
}

/**
 * One line for messages [from, to) of the range: of the turn that tells most (a user's request and the answers
 * up to the next request), its request, then the answer that tells most of what is left (from elsewhere in the
 * segment where the turn has none not yet quoted). "Tells" is SumBasic's weight over the segment's own words,
 * times the sentence's salience; what earlier lines told weighs less.
 */
function segmentLine(reading: Reading, from: number, to: number, cap: number, told: Told, specificity: (word: string) => number, numbers?: readonly number[]): string {
  const { items } = reading;
  const where = numbers ? (to - from === 1 ? `#${numbers[from]}` : `#${numbers[from]}–#${numbers[to - 1]}`) : to - from === 1 ? `Message ${from + 1}` : `Messages ${from + 1}–${to}`;
  // Where the line stands for several messages, each quote says which one it is from.
  const whose = (at: number) => (to - from === 1 ? '' : numbers ? ` (#${numbers[at]})` : ` (${at + 1})`);
  // No room for words: the line still says which messages the summary stands for.
  if (cap === 0) return `- ${where}: …`;
  const here = reading.sentences.slice(reading.first[from], reading.first[to]);
  const spoken = here.filter((s) => s.kind !== 'result');
  const probabilities = new WordProbabilities(
    spoken.map((s) => s.words),
    told.words,
    specificity,
  );
  // A sentence already quoted tells nothing new (agents repeat themselves): it is quoted again only where nothing else was said.
  const weigh = (s: Sentence) => probabilities.weight(s.words) * s.worth * (told.sentences.has(s.key) ? 1e-9 : 1);
  const tell = (s: Sentence) => {
    probabilities.tell(s.words);
    told.sentences.add(s.key);
    for (const w of s.words) told.words.set(w, (told.words.get(w) ?? 0) + 1);
  };
  // A turn weighs what its request and its best answer weigh.
  let asked: Sentence | undefined;
  let turn: Sentence[] = [];
  let most = 0;
  const answers = (list: readonly Sentence[]) => list.filter((s) => s.kind === 'answer');
  for (let k = 0; k < spoken.length; ) {
    if (spoken[k].kind !== 'request') {
      k++;
      continue;
    }
    const at = spoken[k].at;
    let end = k;
    while (end < spoken.length && (spoken[end].at === at || spoken[end].kind !== 'request')) end++;
    const request = best(spoken.slice(k, end), (s) => (s.kind === 'request' ? weigh(s) : 0));
    const replies = answers(spoken.slice(k, end));
    const weight = (request ? weigh(request) : 0) + weigh(best(replies, weigh) ?? NONE);
    if (request && weight > most) [asked, turn, most] = [request, replies, weight];
    k = end;
  }
  if (asked) tell(asked);
  const untold = (s: Sentence) => (told.sentences.has(s.key) ? 0 : weigh(s));
  const said = best(turn, untold) ?? best(answers(spoken), weigh) ?? best(spoken, (s) => (s.kind === 'system' ? weigh(s) : 0));
  if (said) tell(said);
  const quote = (s: Sentence) => `"${s.text.length > cap ? s.text.slice(0, cap - 1) + '…' : s.text}"`;
  const parts: string[] = [];
  // In the order they were said (an answer from before the request, where its turn had none, comes first).
  for (const s of [asked, said].filter((x) => x !== undefined).sort((a, b) => a.at - b.at)) {
    parts.push(`${s.kind === 'request' ? 'user' : s.kind === 'system' ? 'system' : 'assistant'}: ${quote(s)}${whose(s.at)}`);
  }
  // "→" only where the answer is the request's own (its turn); an answer from elsewhere is not its reply.
  const replied = !!asked && !!said && turn.includes(said);
  if (parts.length === 0) {
    // Only tools spoke here: what they were, or what the first of them answered.
    const tools = toolLine(toolActivity(items.slice(from, to)), 3);
    const answered = best(here, (s) => s.worth);
    parts.push(tools ? tools.replace(/^Tools: /, 'tool calls ').replace(/\.$/, '') : answered ? `tool result: ${quote(answered)}` : 'no text');
  }
  return `- ${where}: ${parts.join(replied ? ' → ' : ' · ')}`;
}

/** The tokens a range costs, near enough to set a budget by: its texts, and the names of the tools it calls. */
function tokensOf(items: readonly SummaryItem[], measure: Measure): number {
  const LONG = 20_000;
  let n = 0;
  for (const item of items) {
    // A very long text is counted by its opening and its length (a 10 MB log costs what a page does here).
    n += item.text.length > LONG ? Math.round((measure.count(item.text.slice(0, LONG)) * item.text.length) / LONG) : measure.count(item.text);
    for (const c of item.calls) n += measure.count(c.name);
  }
  return n;
}

/**
 * An offline, deterministic summary of the whole range, within the token budget. The range is cut into as
 * many contiguous segments as the budget allows (each starting, where it can, at a user's request); each gets
 * a line quoting its most telling request and answer, chosen by SumBasic (Nenkova & Vanderwende 2005) over
 * the segment's content words weighted by salience (a user's request counts most, then an assistant's
 * decision; specifics add). What a line tells is squared away for the lines after it, so chatter said in every
 * stretch is quoted once, and each line tells what is new there. A tools line names the tools the range used
 * and how often they failed. No model, no network: the same input gives the same text. The summary is shorter
 * than the messages it replaces wherever any summary can be.
 */
export class ExtractiveSummarizer implements Summarizer {
  readonly name = 'offline extractive summary';
  private readonly measure: Measure;
  private readonly maxTokens: number | undefined;
  private readonly describe: (m: Message) => SummaryItem;
  private readonly refuseLonger: boolean;
  private readonly numbers: readonly number[] | undefined;

  constructor(options: ExtractiveOptions) {
    this.numbers = options.numbers;
    this.measure = options.measure;
    this.maxTokens = options.maxTokens;
    this.describe = options.describe ?? summaryItemOf;
    this.refuseLonger = options.refuseLonger ?? false;
  }

  async summarize(messages: readonly Message[]): Promise<string> {
    return this.summarizeSync(messages);
  }

  summarizeSync(messages: readonly Message[]): string {
    const items = messages.map((m) => this.describe(m));
    const n = items.length;
    const header = `Summary of ${n.toLocaleString('en')} earlier message${n === 1 ? '' : 's'}:`;
    if (n === 0) return header;
    const reading = read(items);
    const range = tokensOf(items, this.measure);
    const budget = this.maxTokens ?? defaultSummaryBudget(range);
    // Shorter than what it replaces where a summary with whole quotes can be; else the summary at the budget,
    // which grows the history (the caller says so, or it is refused).
    const text = (budget >= range ? this.within(reading, header, range - 1, false) : undefined) ?? this.within(reading, header, budget, true) ?? header;
    if (this.refuseLonger) {
      const tokens = this.measure.count(text);
      const many = `${n.toLocaleString('en')} message${n === 1 ? '' : 's'}`;
      if (tokens >= range) throw new SummarizerError('grows', `the offline summary (${tokens} tokens) would be no shorter than the ${many} it replaces (${range} tokens): it would grow the history`);
    }
    return text;
  }

  /**
   * The summary with the most segments that fits `budget` tokens, or none when not even one line fits;
   * `shorten`: a line's quotes, then the tools named, are shortened to fit a budget too small for them.
   */
  private within(reading: Reading, header: string, budget: number, shorten: boolean): string | undefined {
    const { items } = reading;
    const n = items.length;
    if (budget <= 0) return undefined;
    const uses = toolActivity(items);
    const render = (segments: number, cap: number, tools: number) => {
      const lines = [header];
      const line = toolLine(uses, tools);
      if (line) lines.push(line);
      const told: Told = { words: new Map(), sentences: new Set() };
      const cuts = boundaries(n, segments, reading.requests);
      const specificity = specificityOver(reading, cuts);
      for (let j = 0; j < segments; j++) lines.push(segmentLine(reading, cuts[j], cuts[j + 1], cap, told, specificity, this.numbers?.length === n ? this.numbers : undefined));
      return lines.join('\n');
    };
    const fits = (text: string) => this.measure.count(text) <= budget;
    // The most segments that fit (a segment line is some 20 to 90 tokens), found by halving.
    let lo = 1;
    let hi = Math.max(1, Math.min(n, Math.floor(budget / 20)));
    if (!fits(render(1, 200, 8))) hi = 0;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(render(mid, 200, 8))) lo = mid;
      else hi = mid - 1;
    }
    if (hi >= 1) return render(lo, 200, 8);
    if (!shorten) return undefined;
    // A budget too small for one full line: shorter quotes, fewer tools, then no words at all.
    for (const [cap, tools] of [[100, 3], [50, 1], [24, 0], [0, 0]] as const) {
      const text = render(1, cap, tools);
      if (fits(text)) return text;
    }
    return undefined;
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
