import type { MessageView, ReportedUsage } from './model.js';
import type { Utf8Text } from './syntax/utf8-text.js';
import type { Problem } from './validity.js';
import type { RoleDeclaration } from './roles.js';
import type { MessageTree } from '../tree/message-tree.js';

/** A tool the conversation declares (a dataset's `tools`, a request's tool list): what conversions carry. */
export interface ToolSchema {
  name: string;
  description?: string;
  /** The JSON schema of its arguments. */
  parameters?: unknown;
}

/** Reads a small file a tool keeps beside its sessions: its text, undefined where there is none (or it is too big). */
export type AsideReader = (path: string) => string | undefined;

/** What a tool's layout and the files it keeps beside a session say of it, where the session's own file does not. */
export interface Aside {
  /** Where the session ran (a path), or failing that a name people can read for the project (`named`). */
  project?: string;
  named?: true;
  /** When it began (an ISO time), for a file whose messages carry no time. */
  startedAt?: string;
}

/** Usage a file reports apart from its messages' own figures: a total of several calls. */
export interface ReportedTotal {
  /** The row it comes after (the last message before it), and when it was written. */
  index: number;
  at?: string;
  /** Its key among the file's calls (the same total read again is the same call). */
  key: string;
  /** Its figures, `calls` how many calls they add up. */
  usage: ReportedUsage;
  /**
   * The rows of messages whose calls it adds up too (their own figures are in it): their calls count in it, not
   * apart, and of their figures only what they say beyond it (the output per call) is theirs.
   */
  covers: number[];
}

/** What a file says about a conversation beside its messages. */
export interface ConversationMeta {
  tools?: ToolSchema[];
  /** The tools as the file spells them, where that is a string of its own (ShareGPT's `tools`). */
  toolsText?: string;
  /** Where the session ran, and its id (Claude Code, Codex). */
  cwd?: string;
  sessionId?: string;
  /** The version of the tool that wrote it. */
  version?: string;
  gitBranch?: string;
  /** Instructions the agent kept apart from the messages (Codex's `session_meta.instructions`). */
  instructions?: string;
  /** When the session began, where the file says so apart from its messages (which may hold no times). */
  startedAt?: string;
  /** Gemini CLI's hash of the folder the session ran in (`projectHash`): sessions of one hash ran in one folder. */
  projectHash?: string;
}

/** One conversation of a file: its message records, as the codec parsed them (raw values it owns). */
export interface DocumentConversation {
  /** A title from the file (an export's conversation name, a session summary), when there is one. */
  title?: string;
  records: unknown[];
  meta?: ConversationMeta;
}

/**
 * A parsed file: one or more conversations, and the records that are not messages (session metadata,
 * progress events, snapshots, turn context), which a save writes back untouched.
 */
export interface ConversationDocument {
  codec: string;
  conversations: DocumentConversation[];
  /** How many records of the file are not messages (they are kept, not shown as messages). */
  otherRecords: number;
  /** The text as read (after a byte order mark): unchanged records are written back from it. */
  text: string;
  /** What the codec needs to write the file back in its own style; opaque to everyone else. */
  baseline: unknown;
  /** Who speaks under names that are not roles, as the file declares it (see roles.ts). */
  roles?: RoleDeclaration[];
}

export interface WriteOptions {
  /**
   * The caller never changes a record in place (the app: an edit makes a new record). Records read from the
   * file are then written as their own text without reading that text again, and only the records that are
   * new are compared once the output is read back: a save of a 100 MB file after one edit stays cheap.
   */
  immutable?: boolean;
  /**
   * The file's name, which the output is read back by: a codec that knows a file by its name alone (any
   * MEMORY.md, header or none) reads it back as it read the file. Without one, by its text.
   */
  name?: string;
}

export type Syntax = 'json' | 'jsonl' | 'yaml' | 'markdown';

/** Whether a head holds `"word"`. */
export type Quoted = (word: string) => boolean;

/** `quoted` where the registry gave one, else a plain search of the head. */
export const quotedIn = (head: string, quoted: Quoted | undefined, word: string): boolean => (quoted ? quoted(word) : head.includes(`"${word}"`));

export interface CodecCapabilities {
  /** Whether a file of this format can hold several conversations (a dataset, an export). */
  conversations: 'one' | 'many';
  toolCalls: boolean;
  reasoning: boolean;
  /** Whether the format has records that are not messages (kept, never touched). */
  otherRecords: boolean;
  /** Per-message timestamps. */
  timestamps: boolean;
  /**
   * How tool calls and results share a record: `one` (a Codex item, a ShareGPT turn: each call and each result
   * a record of its own), `calls` (an assistant message holds text and its calls; each result is a message;
   * the default), `any` (content blocks: a message holds any mix, results on the user's side), `turn` (a model
   * turn holds its calls and their results: Gemini CLI).
   */
  toolParts?: 'one' | 'calls' | 'any' | 'turn';
}

/**
 * A file format: how to recognise it, read it into conversations of records, see a record as a message,
 * make a record from a message, and write records back so that unchanged ones keep their exact bytes.
 * String in, string out: no file system here.
 */
export interface Codec {
  id: string;
  label: string;
  /** The tool that reads the format, named in what a save or conversion says ("Claude Code"). */
  tool?: string;
  syntax: Syntax;
  /** Lower-case extensions with the dot (".jsonl"). */
  extensions: readonly string[];
  /**
   * Why files of this format are never written here (another app's live database, say): it is read, shown,
   * searched and converted from, never saved into or converted to.
   */
  readOnly?: string;
  /**
   * A file the tool keeps beside its sessions (a log of the prompts typed, an index of names), not a session:
   * read and searched, never listed among the sessions nor counted in their usage.
   */
  companion?: true;
  /** The name a companion record gives a session of the tool (an index of names): the session is titled by it. */
  sessionName?(record: unknown): { sessionId: string; name: string } | undefined;
  /**
   * What the tool's layout, and the small files it keeps beside its sessions, say of a conversation that its own
   * file does not: where it ran (Gemini CLI's project folder and its `.project_root`), when it began (Continue's
   * `sessions.json`). `read` gives such a file's text: the catalog reads them, never the codec.
   */
  aside?(file: string, doc: ConversationDocument, conversation: number, read: AsideReader): Aside | undefined;
  /**
   * Usage the file reports apart from its messages (Copilot CLI's `session.shutdown` totals per model), with the
   * messages whose calls each total adds up too; none when absent.
   */
  usageTotals?(doc: ConversationDocument, conversation: number): ReportedTotal[];
  /**
   * The user's own words in a prompt the tool wrapped in context of its own (Codex's IDE extension puts the open
   * files before "## My request for Codex:"): what titles a session. Undefined for the prompt whole.
   */
  requestText?(view: MessageView): string | undefined;
  capabilities: CodecCapabilities;
  /**
   * How specifically `head` (the file's first bytes) and `name` (its file name) look like this format: 0
   * means not this format; among codecs that accept a file, the highest score reads it. `quoted(word)` says
   * whether the head holds `"word"` (a string of exactly that): the registry answers the codecs' `sniffMarks`
   * from the one pass it makes over each head, where a plain search would cost a pass of its own.
   */
  sniff(head: string, name: string, quoted?: Quoted): number;
  /**
   * Strings on every line of a one-record-per-line log that can carry what the session list and the usage view
   * need beyond the file's first lines (a call's usage, the file's own title): the catalog lists a file of this
   * format from its first lines and those alone, before it reads the whole file for search.
   */
  listingMarks?: readonly string[];
  /** Whether a line's value is a record (a message) of a conversation, as the codec's parse decides. */
  isListedRecord?(value: unknown): boolean;
  /** How a line starts when it matters to the listing (a title line, a compaction): such lines are read too. */
  listingHeads?: readonly string[];
  /**
   * What a line the listing reads points at elsewhere in the file, as the file spells it (a summary's `"uuid":"…"`
   * of the message it titles): the lines holding these are read too, so the listing decides as the whole read does.
   */
  listingLinks?(line: Buffer): string[];
  /** The text of a line holding a listing mark without what the listing needs none of (a message's text); undefined for the line whole. */
  slimLine?(line: Buffer): string | undefined;
  /** Strings one of which is on every line that is a record (a message), as its file spells them: records counted without a parse. */
  recordMarks?: readonly string[];
  /**
   * For a log whose usage is not on its own lines (Codex: each call's `token_count` event belongs to the item
   * before it), read whole to be listed: a long line (its line break apart) as the listing may read it, the
   * bulk the session list needs none of left out (a tool's output), the same record with the same place; undefined
   * to read it as it is. The catalog lists such a file from the slimmed text, then reads it whole for search.
   */
  listingLine?(line: Buffer): Buffer | undefined;
  /** Words this codec's sniffer asks `quoted` about (answered from the registry's one pass over the head). */
  sniffMarks?: readonly string[];
  /**
   * Strings at least one of which the head holds in quotes (`"sessionId"`) whenever `sniff` says more than 0:
   * a listing of thousands of files asks the sniffer only of heads that hold one (found in one pass for all
   * codecs). Each must be necessary; a codec whose sniff can pass on its name alone has none.
   */
  sniffNeeds?: readonly string[];
  /** Throws ConversationFileError (with the line and column) for text that is not this format. */
  parse(text: string, file: string): ConversationDocument;
  /** The same document read from the text's bytes, where the format reads a line at a time (its text decoded only if asked for). */
  parseBytes?(text: Utf8Text, file: string): ConversationDocument;
  /** The text of the file holding these records; records the document holds unchanged keep their bytes. */
  serialize(doc: ConversationDocument, conversations: readonly (readonly unknown[])[], options?: WriteOptions): string;
  /** A record seen as a message. */
  view(record: unknown): MessageView;
  /**
   * A record of this format saying `view`, for a new message or a conversion into this format; `near` is a
   * record of the same conversation to copy session fields from. Undefined parts of the view that the
   * format cannot hold are reported by `loses`.
   */
  fromView(view: MessageView, near?: unknown): unknown;
  /** What writing `view` into this format would lose (reasoning it has no place for, say); [] for nothing. */
  loses(view: MessageView): string[];
  /** A record with its readable text replaced (the editor's content field), or undefined when not editable. */
  withText(record: unknown, text: string): unknown;
  /**
   * Whether the format holds no message for this record once written (ShareGPT's system prompt emptied: the file
   * keeps no empty prompt to read back). An edit that makes such a record deletes the message instead.
   */
  vanishes?(record: unknown): boolean;
  /**
   * The order the format keeps records in, when it has one of its own (ShareGPT keeps the system prompt first
   * and the preferred and rejected answers last): records as a save will read them back.
   */
  order?(records: readonly unknown[]): unknown[];
  /** What the format's own tool would refuse or misread in this document (see validity.ts); none when absent. */
  validate?(doc: ConversationDocument): Problem[];
  /**
   * A compaction as the format's own tool writes it. `after` is the conversation once compacted (the summary
   * records among it, made by fromView, are in `summaries`); the result is what the file should hold. Claude
   * Code keeps the history and appends a compact boundary, the summary and what stays. Without this hook the
   * file holds `after`.
   */
  compact?(records: readonly unknown[], after: readonly unknown[], summaries: ReadonlySet<unknown>, info: { tokensBefore: number }): unknown[];
  /**
   * Speakers are named, not only given roles (a swarms agent writes under its own name): the names are read as
   * roles by a rule and what the file declares, shown to the user, who can say otherwise.
   */
  namedSpeakers?: boolean;
  /**
   * The tree a conversation's records make, for formats that link each message to the one it follows
   * (parent ids, sub-agent threads, compactions that start anew). Without it, a conversation is one path.
   * `records` are the conversation's records now (edited), the document the file as last read.
   */
  tree?(doc: ConversationDocument, conversation: number, records: readonly unknown[]): MessageTree;
  /** A copy of a record with ids of its own (a duplicate must not reuse the uuid the chain links by). */
  freshIds?(record: unknown): unknown;
  /**
   * Keys the writer sets itself to keep the file whole (a Claude Code line's `parentUuid`): a record reads back
   * with them as the writer chose, whatever the record held.
   */
  linkFields?: readonly string[];
  /**
   * The document once `added` is appended to its file (an agent writing its session): only what was added is
   * read, and every record read before stays the same object. Without it, a file that grew is read again whole.
   */
  append?(doc: ConversationDocument, added: string, file: string): ConversationDocument;
  /** The record's own text in the file (the detail pane's Raw view), when it has one. */
  rawText(doc: ConversationDocument, conversation: number, record: unknown): string | undefined;
}

/** The file is valid syntax but not this codec's format: detection moves on to the next candidate. */
export class NotThisFormat extends Error {
  constructor(
    message: string,
    /** Where the file stopped looking like this format, when that is one place. */
    readonly position?: { line: number; column: number },
  ) {
    super(message);
    this.name = 'NotThisFormat';
  }
}
