import type { Message } from '../message.js';
import { DEFAULT_SUMMARY_BASE_URL, DEFAULT_SUMMARY_MODEL } from '../defaults.js';
import { getTokenizer } from '../tokenizer/index.js';
import { ExtractiveSummarizer, TextSummarizer } from './offline.js';
import { OpenAICompatibleSummarizer } from './openai.js';
import type { SummaryItem } from './summary-items.js';
import type { Summarizer } from './types.js';

/** Where a summary comes from: text given, the offline extractive summary, or an OpenAI-compatible endpoint. */
export type SummarizerChoice =
  | { kind: 'text'; text: string }
  /** `maxTokens` left out: a budget that scales with the range; `refuseLonger`: refuse a summary that would grow the history. */
  | { kind: 'offline'; maxTokens?: number; refuseLonger?: boolean }
  | { kind: 'openai'; baseUrl?: string; model?: string; apiKey?: string };

export interface SummarizerContext {
  /** The model whose tokens the offline summary's budget counts. */
  model: string;
  /** How the offline summary reads a message (the app reads any format by its view). */
  describe?: (m: Message) => SummaryItem;
  /** How the reader numbers the range's messages (the app's table: from 0, where the range starts). */
  numbers?: readonly number[];
  /** OPENAI_BASE_URL and OPENAI_API_KEY where the choice names none (default: this process's environment). */
  env?: Record<string, string | undefined>;
}

/** The one place a summariser is made, for the CLI and the app alike (defaults from defaults.ts). */
export function summarizerFrom(choice: SummarizerChoice, context: SummarizerContext): Summarizer {
  if (choice.kind === 'text') return new TextSummarizer(choice.text);
  if (choice.kind === 'offline') return new ExtractiveSummarizer({ measure: getTokenizer(context.model), maxTokens: choice.maxTokens, describe: context.describe, refuseLonger: choice.refuseLonger, numbers: context.numbers });
  const env = context.env ?? process.env;
  return new OpenAICompatibleSummarizer({ baseUrl: choice.baseUrl || env.OPENAI_BASE_URL || DEFAULT_SUMMARY_BASE_URL, model: choice.model || DEFAULT_SUMMARY_MODEL, apiKey: choice.apiKey ?? env.OPENAI_API_KEY });
}
