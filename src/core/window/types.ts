/**
 * Window plans: what a context-window strategy keeps, drops, cuts or summarises, computed from a compact
 * skeleton of the history. Planners are pure and synchronous (they run in the renderer during slider
 * drags), so nothing here touches Node, files or the tokenizer module itself.
 */

/** Token measuring, injected where exact cuts are wanted (the Tokenizer satisfies it). */
export interface Measure {
  count(text: string): number;
  /** UTF-16 offset where the longest suffix fitting `limit` tokens starts. */
  fitSuffixStart(text: string, limit: number): number;
  /** The same suffix with its exact token count. */
  fitSuffix(text: string, limit: number): { start: number; tokens: number };
  /** UTF-16 offset where the longest prefix fitting `limit` tokens ends. */
  fitPrefixEnd(text: string, limit: number): number;
}

export interface SkeletonMessage {
  role: string;
  /** Tokens of the content (the `token_count` rule: content only, 0 for white space). */
  tokens: number;
  /** Tokens of this message's block in the rendered history, with the blank line after it (none for the last). */
  renderedTokens: number;
  /** Length of the content text in UTF-16 units (for estimating cut positions without the text). */
  length: number;
  /** Ids of the tool calls this message makes. */
  toolCallIds: readonly string[];
  /** Id of the tool call this message answers, if it is a tool result. */
  toolResultId?: string;
  /** A tool message whose partner cannot be identified by id (role tool/function without ids). */
  toolLike: boolean;
  /** System prompt, rules or persistent memory: the context that compaction keeps. */
  isStatic: boolean;
  contentIsString: boolean;
  /** A compaction's boundary or its summary: from it on, the model was sent the summary in place of everything before it. */
  startsPart?: boolean;
}

/** Access to the text behind a skeleton, for exact cut positions. */
export interface SkeletonText {
  content(index: number): string;
  /** The rendered block (`[timestamp] role: content`), without separators. */
  block(index: number): string;
  measure: Measure;
}

export interface WindowSkeleton {
  /** Never changed in place: a changed history is a new list (planners keep columns of each list they see). */
  messages: readonly SkeletonMessage[];
  text?: SkeletonText;
}

export type Fate = 'kept' | 'dropped' | 'cut' | 'summarised';

export interface MessageFate {
  index: number;
  fate: Fate;
  /** Tokens of this message after the strategy (0 when dropped or summarised). */
  tokensAfter: number;
  /** For `cut`: which end is kept and where the cut falls (UTF-16 offset into the content). */
  cut?: { keep: 'start' | 'end'; offset: number; approximate: boolean };
  /** For `summarised`: index into `inserted` of the summary that replaces it. */
  summary?: number;
}

export interface InsertedMessage {
  kind: 'summary';
  role: string;
  /** Inserted before this original index (the history's length to append). */
  before: number;
  /** Original indexes this message replaces. */
  replaces: number[];
  /** Known once summary text exists; until then null and not counted. */
  tokens: number | null;
}

export interface PlanWarning {
  code: 'orphaned-tool-result' | 'orphaned-tool-call' | 'structured-content-dropped' | 'approximate-cut' | 'budget-exceeded' | 'static-dropped';
  index: number;
  message: string;
}

/** Fate codes in `WindowPlan.fates`, indexes into FATES. */
export const FATES = ['kept', 'dropped', 'cut', 'summarised'] as const;
export const FATE_CODE: Record<Fate, number> = { kept: 0, dropped: 1, cut: 2, summarised: 3 };

export interface WindowPlan {
  strategy: string;
  params: Record<string, unknown>;
  /** `content`: totals are message token counts; `rendered`: tokens of the rendered history string. */
  unit: 'content' | 'rendered';
  /** Per message, a FATES index: compact, so a 100k-message re-plan allocates almost nothing. */
  fates: Uint8Array;
  /** Per message, tokens after the strategy. */
  tokensAfter: Float64Array;
  /** Cut details by message index. */
  cuts: Record<number, NonNullable<MessageFate['cut']>>;
  /** Per message, 1 + the index into `inserted` of its summary (0: not summarised); null when nothing is. */
  summaryOf: Int32Array | null;
  /** The same as objects, built on first read (for JSON, tests and small histories). */
  readonly messages: MessageFate[];
  inserted: InsertedMessage[];
  totalBefore: number;
  totalAfter: number;
  counts: Record<Fate, number>;
  warnings: PlanWarning[];
  /** For the dynamic window: the UTF-16 offset into the rendered history where the kept text starts. */
  renderedStart?: number;
  /**
   * The message `renderedStart` counts from: 0, or (the static context kept whole ahead of a trimmed rest) the
   * first message after it. The model is sent blocks [0, renderedFrom) whole, then the rest's tail.
   */
  renderedFrom?: number;
  /**
   * A plan of a run's turn after a compaction (planAtTurn): the messages before this one were replaced by the
   * compaction's summary, which the model was sent from here on; they read as summarised.
   */
  compactedBefore?: number;
}

export type ParamKind = 'tokens' | 'count' | 'boolean' | 'choice' | 'text';

export interface ParamSpec {
  key: string;
  label: string;
  kind: ParamKind;
  default: unknown;
  min?: number;
  choices?: readonly string[];
  help?: string;
}

export interface WindowStrategy<P extends Record<string, unknown> = Record<string, unknown>> {
  id: string;
  label: string;
  description: string;
  params: readonly ParamSpec[];
  /** Its plans may insert summary messages (at some budgets, not others): a view keeps room to say how many. */
  summarises?: boolean;
  plan(skeleton: WindowSkeleton, params: Partial<P>): WindowPlan;
}
