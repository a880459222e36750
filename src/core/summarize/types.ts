import type { Message } from '../message.js';

export interface SummarizeOptions {
  signal?: AbortSignal;
}

/** Produces summary text for messages a plan summarises. Separate from planning: it is slow and async. */
export interface Summarizer {
  readonly name: string;
  summarize(messages: readonly Message[], options?: SummarizeOptions): Promise<string>;
}

export type SummarizerErrorCode = 'auth' | 'http' | 'timeout' | 'malformed' | 'network' | 'cancelled' | 'empty' | 'grows';

/** A summary that could not be produced; the message says why in words a user can act on. */
export class SummarizerError extends Error {
  readonly code: SummarizerErrorCode;
  constructor(code: SummarizerErrorCode, message: string) {
    super(message);
    this.name = 'SummarizerError';
    this.code = code;
  }
}
