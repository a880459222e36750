import type { Codec, ConversationDocument } from './codec.js';

/**
 * What the tool that owns a format needs of a file to use it (a Claude Code chain that resumes whole, an
 * OpenAI tool message answering a call before it, a ShareGPT turn where its role may stand). Each codec says
 * what its tool would refuse or misread; a save or conversion that would add such a problem says so first.
 */
export interface Problem {
  /** The conversation (0 for a file of one). */
  conversation: number;
  /** The message, by its index among the conversation's records, when the problem is one message's. */
  message?: number;
  /** The 1-based line of the file, where the format is line-based. */
  line?: number;
  text: string;
}

/** Where a problem is, in words: "line 12", "conversation #2, message 4" (each numbered from 0, as the table and the CLI number them). */
export function problemPlace(p: Problem, conversations: number): string {
  if (p.line !== undefined) return `line ${p.line}`;
  const conv = conversations > 1 ? `conversation #${p.conversation}` : '';
  const msg = p.message !== undefined ? `message ${p.message}` : '';
  return [conv, msg].filter(Boolean).join(', ') || 'the file';
}

export function describeProblem(p: Problem, conversations: number): string {
  return `${problemPlace(p, conversations)}: ${p.text}`;
}

/** The problems a codec finds in a document ([] for formats with nothing to check). */
export function problemsOf(codec: Codec, doc: ConversationDocument): Problem[] {
  return codec.validate ? codec.validate(doc) : [];
}

/**
 * The problems of `after` that `before` did not have: a file that was already so is not the edit's fault.
 * Problems are compared by what they say (their places move with the edits), each counted.
 */
export function newProblems(before: readonly Problem[], after: readonly Problem[]): Problem[] {
  const had = new Map<string, number>();
  for (const p of before) had.set(p.text, (had.get(p.text) ?? 0) + 1);
  const out: Problem[] = [];
  for (const p of after) {
    const n = had.get(p.text) ?? 0;
    if (n > 0) had.set(p.text, n - 1);
    else out.push(p);
  }
  return out;
}
