import { contentText, type Message } from '../message.js';
import type { Measure } from '../window/types.js';
import type { Summarizer } from './types.js';

export interface ExtractiveOptions {
  measure: Measure;
  /** The summary stays within this many tokens (default 400). */
  maxTokens?: number;
}

function firstSentence(text: string, maxChars = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  return sentence.length > maxChars ? sentence.slice(0, maxChars - 1) + '…' : sentence;
}

/**
 * An offline, deterministic summary: the opening sentence of each message, in order, until the token budget
 * is spent. No model, no network; the same input always gives the same text.
 */
export class ExtractiveSummarizer implements Summarizer {
  readonly name = 'offline extractive summary';
  private readonly measure: Measure;
  private readonly maxTokens: number;

  constructor(options: ExtractiveOptions) {
    this.measure = options.measure;
    this.maxTokens = options.maxTokens ?? 400;
  }

  async summarize(messages: readonly Message[]): Promise<string> {
    return this.summarizeSync(messages);
  }

  summarizeSync(messages: readonly Message[]): string {
    const header = `Summary of ${messages.length} earlier message${messages.length === 1 ? '' : 's'}:`;
    const lines = [header];
    let included = 0;
    for (const m of messages) {
      const sentence = firstSentence(contentText(m.content));
      if (!sentence) {
        included++;
        continue;
      }
      const candidate = [...lines, `- ${m.role}: ${sentence}`];
      const rest = messages.length - included - 1;
      const withNote = rest > 0 ? [...candidate, `(${rest} more not shown)`] : candidate;
      if (this.measure.count(withNote.join('\n')) > this.maxTokens) break;
      lines.push(`- ${m.role}: ${sentence}`);
      included++;
    }
    const left = messages.length - included;
    if (left > 0) lines.push(`(${left} more not shown)`);
    return lines.join('\n');
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
