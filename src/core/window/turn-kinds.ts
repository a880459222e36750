/**
 * What "a turn" is, named: a user prompt (what the person typed: not a tool's result handed back, not a note
 * the tool wrote), or a model call (each request the agent made: the history before each reply of the
 * model). An agent session with 3 prompts may hold 176 calls; a turn per tool result is neither.
 */
export type TurnKind = 'prompt' | 'call';

export interface TurnMessage {
  normalRole: string;
  /** A tool's result, or written by the tool (not the person). */
  toolResult?: boolean;
  meta?: boolean;
}

/**
 * Where the model was called, as prefix lengths ascending (the history [0, end) was sent), with the end of
 * the conversation last. By prompt: after each prompt (with it). By call: before each reply of the model (a
 * run of assistant messages is one reply). A history with neither has a turn per message.
 */
export function turnEndsOf(messages: ArrayLike<TurnMessage>, kind: TurnKind): number[] {
  const n = messages.length;
  const ends: number[] = [];
  for (let i = 0; i < n; i++) {
    const m = messages[i];
    if (kind === 'prompt' && m.normalRole === 'user' && !m.toolResult && !m.meta) ends.push(i + 1);
    if (kind === 'call' && m.normalRole === 'assistant' && i > 0 && messages[i - 1].normalRole !== 'assistant') ends.push(i);
  }
  if (ends.length === 0) return Array.from({ length: n }, (_, i) => i + 1);
  if (ends[ends.length - 1] !== n) ends.push(n);
  return ends;
}
