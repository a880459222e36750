import type { Skeleton } from '../../../shared/contract.js';

/**
 * What began the part of a session the model is sent now, in words that follow "since": a compaction, or where
 * none did, a `/clear` or the session resumed into its file (the model was sent nothing of before either).
 */
export function partStart(skeleton: Pick<Skeleton, 'earlierBy'>): { since: string; last: string } {
  if (skeleton.earlierBy === 'clear') return { since: 'the /clear', last: 'the last /clear' };
  if (skeleton.earlierBy === 'resume') return { since: 'the resume', last: 'the session was last resumed in this file' };
  return { since: 'the compaction', last: 'the last compaction' };
}
