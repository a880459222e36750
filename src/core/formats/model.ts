/**
 * The one model every format is read into. A message keeps its role as the file spells it and gets a
 * normalised one; its content is a list of parts. Planners, counts, search and rendering work on parts, so
 * every format gets every feature; each codec only says how its records map to and from this.
 */
import { jsonObjectIn, resultHeadline } from './result-text.js';

export type NormalRole = 'system' | 'user' | 'assistant' | 'tool' | 'other';

export type Part =
  | { kind: 'text'; text: string }
  /** `arguments` as the model is sent them: the raw string a file stores, or the JSON text of an object. */
  | { kind: 'tool-call'; id?: string; name: string; arguments: string }
  | { kind: 'tool-result'; callId?: string; text: string; isError?: boolean }
  /** Shown and counted (as reasoning, apart from text); an encrypted blob or signature only as such. */
  | { kind: 'reasoning'; text: string; encrypted?: boolean; signature?: boolean; /** Whose model wrote it: a provider accepts only its own back. */ vendor?: 'anthropic' | 'openai'; /** Anthropic's signature of a thinking block. */ signed?: string }
  | { kind: 'image'; ref: string; mediaType?: string }
  | { kind: 'file'; ref: string; mediaType?: string }
  /** A part of a type this tool does not know, kept verbatim; its JSON text is what is counted. */
  | { kind: 'unknown'; type: string; text: string };

/**
 * What the API reported for a model call, where the file records it (Claude Code `usage`, Codex token counts),
 * in one meaning for every provider: `input` is every prompt token, the cached ones (`cacheRead`,
 * `cacheWrite`) among them (Anthropic reports those apart from `input_tokens`, OpenAI inside it); `output`
 * every token written, the `reasoning` among them (OpenAI counts it inside `output_tokens`).
 */
export interface ReportedUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Of `cacheWrite`, the tokens written to Anthropic's 1-hour cache (Claude Code's `cache_creation.ephemeral_1h_input_tokens`). */
  cacheWrite1h?: number;
  reasoning?: number;
  /** The model of the call, where the usage record names it apart from the message (Codex's turn context). */
  model?: string;
  /** How many calls this reports, added up, where more than one (a Codex call that wrote no item of its own). */
  calls?: number;
  /** Several records can report the same call (Claude Code writes a line per content block): count once. */
  key?: string;
}

export interface MessageView {
  /** As the file spells it ("System: ", "human", "gpt", "ai", …). */
  role: string;
  normalRole: NormalRole;
  parts: Part[];
  timestamp?: string;
  id?: string;
  category?: string;
  /** A sub-agent's or side chain's message (Claude Code `isSidechain`, Codex sub-agent sessions). */
  sidechain?: boolean;
  /** Written by the tool, not the user or model (Claude Code `isMeta`, command output wrappers). */
  meta?: boolean;
  /** A summary a compaction wrote (Claude Code compact summaries). */
  summary?: boolean;
  /** A compaction boundary (Claude Code `compact_boundary`): the history before it was replaced by a summary. */
  compaction?: {
    trigger?: string;
    /** The tokens of what it replaced, and of what the model was sent after (the summary and what stayed), as the tool measured them. */
    preTokens?: number;
    postTokens?: number;
    /** How long the summary took to write. */
    durationMs?: number;
    /** The summary is the provider's own, encrypted: not readable. */ encrypted?: boolean;
  };
  model?: string;
  usage?: ReportedUsage;
  /** Name of the speaker beyond the role (OpenAI `name`, swarms agents). */
  name?: string;
}

const ROLE_ALIASES: Record<string, NormalRole> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  ai: 'assistant',
  gpt: 'assistant',
  model: 'assistant',
  bot: 'assistant',
  chatbot: 'assistant',
  // A chat where the model speaks under its own name (WorldSim's logs: "Claude").
  claude: 'assistant',
  tool: 'tool',
  function: 'tool',
  function_call: 'assistant',
  observation: 'tool',
  ipython: 'tool',
};

/**
 * The normalised role of a spelling: case and surrounding punctuation ignored ("System: " is system, as
 * legacy swarms files write it); anything unknown (an agent's name, say) is "other".
 */
export function normalizeRole(role: string): NormalRole {
  const key = role.trim().replace(/[:：]\s*$/, '').trim().toLowerCase();
  return ROLE_ALIASES[key] ?? 'other';
}

/** The text of a part as the model is sent it (what is counted and searched); '' for references. */
export function partText(part: Part): string {
  switch (part.kind) {
    case 'text':
    case 'tool-result':
    case 'unknown':
      return part.text;
    case 'tool-call':
      return part.arguments ? `${part.name}\n${part.arguments}` : part.name;
    case 'reasoning':
      return part.encrypted || part.signature ? '' : part.text;
    case 'image':
    case 'file':
      return '';
  }
}

/** The message's sent text apart from reasoning: text, tool calls and results, unknown parts. */
export function sentText(view: Pick<MessageView, 'parts'>): string {
  const out: string[] = [];
  for (const p of view.parts) if (p.kind !== 'reasoning') {
    const t = partText(p);
    if (t !== '') out.push(t);
  }
  return out.join('\n');
}

/** A tool call's arguments as a reader takes them in: a JSON object's strings as they are and other values named, joined; else as written. */
export function readableArguments(args: string): string {
  const o = jsonObjectIn(args);
  if (!o) return args;
  // A string says itself, and so does a list of strings (a command's argv: bash -lc "…"); a number or a switch
  // says little without its name (`timeout_ms=1000`), and comes after what the call says (`Edit: src/a.ts · … · replace_all=false`).
  const said: string[] = [];
  const named: string[] = [];
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string') said.push(v);
    else if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) said.push(v.join(' '));
    else if (v !== null && v !== undefined) named.push(`${k}=${JSON.stringify(v)}`);
  }
  return [...said, ...named].filter((v) => v.trim() !== '').join(' · ');
}

/**
 * The message's sent text as a line of search results shows it: a tool call as its name and its arguments' values
 * (no JSON keys and quotes), a wrapped result as what it says; reasoning after the rest.
 */
export function readableText(view: Pick<MessageView, 'parts'>): string {
  const out: string[] = [];
  const reasoning: string[] = [];
  for (const p of view.parts) {
    const t = p.kind === 'tool-call' ? (p.arguments ? `${p.name}: ${readableArguments(p.arguments)}` : p.name) : p.kind === 'tool-result' ? resultHeadline(p.text) : partText(p);
    if (t !== '') (p.kind === 'reasoning' ? reasoning : out).push(t);
  }
  return [...out, ...reasoning].join('\n');
}

/** The reasoning the message carries in plain text (counted, and labelled, apart from what it says). */
export function reasoningText(view: Pick<MessageView, 'parts'>): string {
  const out: string[] = [];
  for (const p of view.parts) if (p.kind === 'reasoning') {
    const t = partText(p);
    if (t !== '') out.push(t);
  }
  return out.join('\n');
}

/** What a message holding only signed thinking with no text says, in the table, the transcript and `show`. */
export const UNSAVED_REASONING = 'reasoning not kept in the file (only its signature is)';

/** What a message holding only reasoning its provider encrypted says (Codex's `encrypted_content` with no summary). */
export const ENCRYPTED_REASONING = 'reasoning encrypted by the provider: not readable, not counted';

/** Whether a message holds nothing but reasoning the provider encrypted: an empty row would read as a fault. */
export const onlyEncryptedReasoning = (view: Pick<MessageView, 'parts'>): boolean =>
  reasoningText(view) === '' && view.parts.some((p) => p.kind === 'reasoning' && (p.encrypted === true || p.signature === true)) && !view.parts.some((p) => p.kind === 'reasoning' && p.signed !== undefined);

/**
 * Whether a message holds nothing but thinking the file keeps only the signature of (Claude Code keeps no text of
 * thinking it was not given to show): an empty row would read as a fault.
 */
export const onlyUnsavedReasoning = (view: Pick<MessageView, 'parts'>): boolean =>
  reasoningText(view) === '' && view.parts.some((p) => p.kind === 'reasoning' && p.signed !== undefined);

/** A compaction boundary in words: "● Compacted · manual · 23,180 tokens before", "· 11,198 after" where the tool says. */
export function compactionText(c: NonNullable<MessageView['compaction']>): string {
  return ['● Compacted', c.trigger, c.preTokens !== undefined ? `${c.preTokens.toLocaleString('en-US')} tokens before` : undefined, c.postTokens !== undefined ? `${c.postTokens.toLocaleString('en-US')} after` : undefined, c.encrypted ? 'the summary is encrypted, not readable' : undefined].filter(Boolean).join(' · ');
}

/** The readable text of the message alone (its text parts), for previews and "what the model sees". */
export function displayText(view: Pick<MessageView, 'parts'>): string {
  const text = view.parts.filter((p) => p.kind === 'text').map((p) => (p as { text: string }).text);
  if (text.length > 0) return text.join('\n');
  return sentText(view);
}

export interface ToolLinkView {
  callIds: string[];
  resultId?: string;
  toolLike: boolean;
}

/** Tool calls and results, from the parts: a call's id, the call a result answers. */
export function toolLinksOf(view: MessageView): ToolLinkView {
  const callIds: string[] = [];
  let resultId: string | undefined;
  let result = false;
  for (const p of view.parts) {
    if (p.kind === 'tool-call' && p.id) callIds.push(p.id);
    if (p.kind === 'tool-result') {
      result = true;
      resultId ??= p.callId;
    }
  }
  return { callIds, resultId, toolLike: result || view.normalRole === 'tool' };
}

/** Text from a value that may be a string, a list of content blocks, or anything else (as compact JSON). */
export function looseText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) {
    const texts = value.map((v) => (typeof v === 'string' ? v : typeof v === 'object' && v !== null && typeof (v as { text?: unknown }).text === 'string' ? (v as { text: string }).text : undefined));
    if (texts.every((t) => t !== undefined)) return texts.join('\n');
  }
  return JSON.stringify(value) ?? '';
}
