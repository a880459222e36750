import type { MessageView } from './formats/model.js';
import { DEFAULT_MODEL, SESSION_MODEL } from './defaults.js';

/** Not a model: what Claude Code names the replies it writes itself. */
const NOT_A_MODEL = new Set(['<synthetic>']);

/** Whether a name a file gives as a message's model names no model (no call was made to one). */
export const isNotAModel = (name: string): boolean => NOT_A_MODEL.has(name);

/**
 * The model a session ran on, as its file records it: the one most of its messages and calls name (the first
 * named on a tie); undefined when none is named.
 */
export function sessionModel(views: Iterable<Pick<MessageView, 'model' | 'usage'>>): string | undefined {
  const counts = new Map<string, number>();
  for (const v of views) {
    const m = v.model ?? v.usage?.model;
    if (m && !NOT_A_MODEL.has(m)) counts.set(m, (counts.get(m) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [m, n] of counts) if (best === undefined || n > counts.get(best)!) best = m;
  return best;
}

/** A shown part's model, else (a part since a compaction that holds no call yet) the whole file's. */
export function shownSessionModel(shown: Iterable<Pick<MessageView, 'model' | 'usage'>>, whole: () => Iterable<Pick<MessageView, 'model' | 'usage'>>): string | undefined {
  return sessionModel(shown) ?? sessionModel(whole());
}

/** The model tokens are counted for: the one picked, or, where the pick is the session's own, the session's (else the default). */
export function countingModel(picked: string | undefined, session: string | undefined): string {
  return picked === undefined || picked === SESSION_MODEL ? (session ?? DEFAULT_MODEL) : picked;
}

/**
 * How many tokens a model takes in one call, by model name prefix (the longest that matches): what an agent
 * compacts against. Published figures; a model this table does not know has no window here.
 */
const WINDOWS: Readonly<Record<string, number>> = {
  'claude-opus-4': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-haiku-4': 200_000,
  'claude-3-7-sonnet': 200_000,
  'claude-3-5': 200_000,
  // Codex's own figure for the gpt-5 family: the input it keeps room for.
  'gpt-5': 272_000,
  'codex-mini': 200_000,
  'gpt-4.1': 1_047_576,
  'gpt-4o': 128_000,
  o3: 200_000,
  'o4-mini': 200_000,
};

export function contextWindowOf(model: string | undefined): number | undefined {
  if (!model) return undefined;
  const name = model.toLowerCase().replace(/^(anthropic|openai)\//, '');
  // Claude's 1M-token window is a suffix Claude Code writes ("claude-sonnet-4-5[1m]").
  if (/\[1m\]$/.test(name)) return 1_000_000;
  let best: string | undefined;
  for (const key of Object.keys(WINDOWS)) if (name.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  return best === undefined ? undefined : WINDOWS[best];
}
