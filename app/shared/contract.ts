import { z } from 'zod';
import { EVENT_NAMES, REQUEST_NAMES, type EventName, type RequestName } from './channels.js';

/**
 * The one IPC contract: for every request `domain:verb` an input and an output schema, for every push event
 * a payload schema. Main validates every input; types are derived from the schemas. Served over Electron IPC
 * and over the browser-mode WebSocket alike.
 */

/** Where the table shows a message found by search, where that is not the file's order. */
const shownRow = z.object({ conversation: z.number(), index: z.number() }).nullable().optional();
/** Why a hit is on no thread shown until asked (`shown` null): before a compaction of its thread, or on a branch its thread left. */
const offPath = z.enum(['earlier', 'branch']).optional();
const relPath = z.string().min(1).max(4096);
/** Which conversation of a file (datasets and exports hold several); 0 for the rest. */
const conversation = z.number().int().min(0).max(10_000_000).default(0);
const model = z.string().min(1).max(100);

export const DirEntry = z.object({
  /** Relative to the opened folder, "/" between parts: the tree is built from these. */
  path: z.string(),
  name: z.string(),
  /** The codec id that reads it (undefined when none can). */
  format: z.string().optional(),
  formatLabel: z.string().optional(),
  bytes: z.number(),
  modified: z.number(),
  conversations: z.number().optional(),
  /** The conversations' titles, for files that hold several (a dataset, an export). */
  titles: z.array(z.string()).optional(),
  /** Beside `titles`: each conversation's messages, and its tokens once the file has been counted. */
  conversationMessages: z.array(z.number()).optional(),
  conversationTokens: z.array(z.number()).optional(),
  /** A session log too big to read whole: the parts it is read in, each opened as a file of its own (`<path>#part-<n>`). */
  parts: z.array(z.object({ path: z.string(), title: z.string() })).optional(),
  /** A one-conversation file's title, or its first prompt: what a session named by its id is shown as. */
  title: z.string().optional(),
  /** The model the session ran on, as the file records it (most of its calls'): what `tokens` are an estimate for, where its tokenizer is not public. */
  model: z.string().optional(),
  messages: z.number().optional(),
  tokens: z.number().optional(),
  /** Records that are not messages (session metadata, events). */
  other: z.number().optional(),
  /** Why the file cannot be read (the reason only; the position is in errorLine/errorColumn). */
  error: z.string().optional(),
  errorLine: z.number().optional(),
  errorColumn: z.number().optional(),
  /** A database of a tool not read here: what it holds ("Zed threads"); `error` says so. Listed calmly, not as damage. */
  notRead: z.string().optional(),
  /** `messages` and `conversations` are scaled from the file's head, not counted (a big file not yet read whole). */
  estimated: z.boolean().optional(),
  /** Secrets (provider keys, tokens, passwords…) and personal data (e-mail, phone, IP) found in the file, less those dismissed. */
  secrets: z.number().optional(),
  personal: z.number().optional(),
  /** More is coming for this file in a `dir:details` event (its format, its counts). */
  pending: z.boolean().optional(),
  /**
   * A symbolic link that leads out of the opened folders (to a file, or to a folder when `folder`): listed by its
   * name with `error` saying so, never read (no title, counts or size of what it leads to).
   */
  outside: z.boolean().optional(),
  folder: z.boolean().optional(),
});
export type DirEntry = z.infer<typeof DirEntry>;

export const FileError = z.object({ message: z.string(), line: z.number().optional(), column: z.number().optional() });

export const Usage = z.object({ input: z.number().optional(), output: z.number().optional(), cacheRead: z.number().optional(), cacheWrite: z.number().optional(), cacheWrite1h: z.number().optional(), reasoning: z.number().optional(), model: z.string().optional(), /** Calls this reports, added up, where more than one. */ calls: z.number().optional() });

/** Values for a few message indexes: `at` ascending, `values` beside it. */
const sparse = <T extends z.ZodType>(value: T) => z.object({ at: z.array(z.number()), values: z.array(value) });

export const NormalRole = z.enum(['system', 'user', 'assistant', 'tool', 'other']);
/** A name that is not a role, with the role it is read as and why (the file's declaration, a guess, the user). */
export const RoleMappingEntry = z.object({ role: z.string(), normalRole: NormalRole, from: z.string() });

/** The role of a message a skeleton places before the file is read (between the ends of a big file). */
export const UNREAD_ROLE = '…';

export const Skeleton = z.object({
  path: z.string(),
  /** Which conversation of the file this is, and how many it has. */
  conversation: z.number(),
  conversations: z.number(),
  title: z.string().optional(),
  format: z.string(),
  formatLabel: z.string(),
  /** The model the conversation ran on, as its file records it (most of its calls'): the one counted for when the setting is the session's own. */
  model: z.string().optional(),
  /** The swarms formats: their messages have the swarms keys (role, content, category, metadata…). */
  swarms: z.boolean(),
  count: z.number(),
  bytes: z.number(),
  /** Records of the file that are not messages (kept, not shown). */
  other: z.number(),
  /** A JSONL file's last line that is not whole JSON (cut off, or still being written): its number; kept as it is. */
  cutLine: z.number().optional(),
  /** Dictionary-coded roles (as the file spells them, with their normalised role) and categories. */
  roles: z.array(z.string()),
  normalRoles: z.array(z.string()),
  roleOf: z.array(z.number()),
  categories: z.array(z.string()),
  categoryOf: z.array(z.number()),
  /** Bit flags per message (see FLAGS). */
  flags: z.array(z.number()),
  /** The file's own token_count per message, -1 when absent. */
  storedTokens: z.array(z.number()),
  /** Content length per message (UTF-16 units), for placing estimated cuts. */
  lengths: z.array(z.number()),
  /** Tool-call ids of the messages that make calls (sparse: see sparse.ts). */
  toolCalls: sparse(z.array(z.string())),
  /** The call id each tool result answers (sparse). */
  toolResults: sparse(z.string()),
  /** What the API reported for the turn (sparse; once per reported call). */
  usage: sparse(Usage),
  /** Which state of the conversation this is: a delta applies to the version it was made from. */
  version: z.number(),
  /**
   * Which state of the document's edits these rows show (see EditState.version): an edit, undo, redo, reload or
   * save names it, and one made on a state that has changed since (in another window, or by a read from disk)
   * is refused with STALE. Absent where nothing can be edited yet (a file's head, shown while it is read).
   */
  editVersion: z.number().optional(),
  /**
   * For a file whose messages make a tree (a Claude Code session): the conversations it shows (its main thread
   * and each sub-agent's), where this path could have gone otherwise (a rewind: "2 of 3"), and whether it
   * shows the whole session or only since its last compaction (`earlier`: how many messages came before).
   */
  /** `task`: the row of the main thread whose Task call ran this sub-agent. */
  threads: z.array(z.object({ title: z.string(), thread: z.string(), messages: z.number(), conversation: z.number(), task: z.number().optional() })).optional(),
  forks: z.array(z.object({ at: z.number(), options: z.number(), chosen: z.number(), /** Which option the session went on with (toward the leaf its tool resumes from). */ continued: z.number().optional(), /** Per option, what the file calls it ("rank 0"), where it does. */ labels: z.array(z.string()).optional() })).optional(),
  /** Every place the thread forks, on this path or not (forkPoints: the CLI's and the branch tree's count). */
  forkCount: z.number().optional(),
  /** What the API reported for the thread's calls on its other branches (each once): in the thread's total, apart from the path's. */
  otherBranchUsage: z.array(Usage).optional(),
  /** Where the file reports totals beside its messages (a Copilot CLI run's): the calls the session's figures add up, those totals in. */
  sessionUsage: z.array(Usage).optional(),
  /** How many lines of the file name a parent it does not hold (each shown after the line before it). */
  reattached: z.number().optional(),
  whole: z.boolean().optional(),
  earlier: z.number().optional(),
  /** What began the part shown, where no compaction did: a `/clear`, or the session resumed into the file. */
  earlierBy: z.enum(['clear', 'resume']).optional(),
  /**
   * The messages of the session the view is of, as the session list counts them (every thread, every branch, the
   * history before each compaction) where the view is of its own thread; a sub-agent thread's own otherwise. Of
   * those not on the path shown: `earlier` above, `branches` on the thread's other branches, `threads` in the
   * session's other threads (sub-agents written in its file).
   */
  session: z.object({ messages: z.number(), branches: z.number(), threads: z.number() }).optional(),
  /** Whether any message has a time or an id: the table gives no column to what no message has (absent: both). */
  has: z.object({ time: z.boolean(), id: z.boolean() }).optional(),
  /**
   * The file is not saved in place, and why (a compressed copy, an archive, another app's database). `edits`:
   * whether edits can still be made, to be kept with Save As (a compressed history's); not in another app's store.
   */
  readOnly: z.object({ reason: z.string(), edits: z.boolean(), /** The extension a Save As takes (the format's own, for a file in a container). */ saveAs: z.string().optional() }).optional(),
});
export type Skeleton = z.infer<typeof Skeleton>;

/** One message of a skeleton, decoded (what a delta carries for the rows it inserts). */
export const SkeletonRow = z.object({
  role: z.string(),
  normalRole: z.string(),
  category: z.string().optional(),
  flags: z.number(),
  stored: z.number(),
  length: z.number(),
  calls: z.array(z.string()).optional(),
  result: z.string().optional(),
  usage: Usage.optional(),
});
export type SkeletonRow = z.infer<typeof SkeletonRow>;

const WordPiece = z.object({ text: z.string(), side: z.enum(['mine', 'theirs']).optional() });
export const MergePreview = z.object({
  /** My edits that apply cleanly (changes, deletions, additions). */
  applied: z.number(),
  /** What changed on disk since the file was read: messages it has that were not there, and ones it lost or changed. */
  onDisk: z.object({ added: z.number(), changed: z.number(), removed: z.number() }),
  conflicts: z.array(
    z.object({
      conversation: z.number(),
      /** Where the message stands once merged. */
      index: z.number(),
      /** Its text on each side; absent on a side that deleted it. */
      mine: z.string().optional(),
      theirs: z.string().optional(),
      words: z.array(WordPiece),
    }),
  ),
  theirsError: z.string().optional(),
});

export const FLAGS = { toolCall: 1, toolResult: 2, system: 4, structured: 8, static: 16, sidechain: 32, meta: 64, summary: 128, reasoning: 256, compaction: 512, unread: 1024, toolError: 2048 } as const;

const PartSchema = z.union([
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('tool-call'), id: z.string().optional(), name: z.string(), arguments: z.string() }),
  z.object({ kind: z.literal('tool-result'), callId: z.string().optional(), text: z.string(), isError: z.boolean().optional() }),
  z.object({ kind: z.literal('reasoning'), text: z.string(), encrypted: z.boolean().optional(), signature: z.boolean().optional(), /** Signed thinking the file keeps no text of (Claude Code's, when not shown to it). */ unkept: z.boolean().optional() }),
  z.object({ kind: z.enum(['image', 'file']), ref: z.string(), mediaType: z.string().optional() }),
  z.object({ kind: z.literal('unknown'), type: z.string(), text: z.string() }),
]);

export const MessageViewSchema = z.object({
  role: z.string(),
  normalRole: z.string(),
  parts: z.array(PartSchema),
  timestamp: z.string().optional(),
  id: z.string().optional(),
  category: z.string().optional(),
  sidechain: z.boolean().optional(),
  meta: z.boolean().optional(),
  summary: z.boolean().optional(),
  /** A compaction boundary: what it replaced and what the model was sent after, as the tool measured them. */
  compaction: z.object({ trigger: z.string().optional(), preTokens: z.number().optional(), postTokens: z.number().optional(), durationMs: z.number().optional(), encrypted: z.boolean().optional() }).optional(),
  model: z.string().optional(),
  name: z.string().optional(),
  usage: Usage.extend({ key: z.string().optional() }).optional(),
});
export type MessageViewData = z.infer<typeof MessageViewSchema>;

/** One turn's figures (see `conversation:turns`): its first and last rows, tokens, cost at list prices. */
export const TurnFiguresSchema = z.object({
  first: z.number(),
  last: z.number(),
  input: z.number().optional(),
  output: z.number().optional(),
  cacheRead: z.number().optional(),
  cacheWrite: z.number().optional(),
  usd: z.number().optional(),
  model: z.string().optional(),
  estimated: z.boolean(),
});
export type TurnFiguresData = z.infer<typeof TurnFiguresSchema>;

export const Row = z.object({
  index: z.number(),
  role: z.string(),
  preview: z.string(),
  timestamp: z.string().optional(),
  category: z.string().optional(),
  messageId: z.string().optional(),
  /** The row's counts, when asked for while the whole conversation is still being counted (the rows shown first). */
  tokens: z.number().optional(),
  toolTokens: z.number().optional(),
  reasoningTokens: z.number().optional(),
});
export type Row = z.infer<typeof Row>;

/** Counts of some messages, as TokenCounts has them for all. */
const CountSlice = z.object({
  model: z.string(),
  encoding: z.string(),
  approximate: z.boolean(),
  /** What the model is sent per message: its text, tool calls (names and arguments) and tool results. */
  tokens: z.array(z.number()),
  /** The tool-call share of each message's tokens (0 for most). */
  toolTokens: z.array(z.number()),
  /** Reasoning each message carries in plain text: counted apart, not in `tokens`. */
  reasoningTokens: z.array(z.number()),
  renderedTokens: z.array(z.number()),
});

/**
 * What changed in a conversation since the skeleton of version `from`: the rows [start, start + deleteCount)
 * are replaced by `rows` (with their table rows and counts when main has them), and the file-wide fields are
 * `file`'s. Applied by one pure function; the same state a fresh open gives.
 */
export const SkeletonDelta = z.object({
  from: z.number(),
  file: Skeleton.pick({ path: true, conversation: true, conversations: true, title: true, format: true, formatLabel: true, swarms: true, count: true, bytes: true, other: true, version: true, editVersion: true, has: true, threads: true, forks: true, forkCount: true, otherBranchUsage: true, sessionUsage: true, reattached: true, whole: true, earlier: true, earlierBy: true, session: true, readOnly: true, model: true }),
  start: z.number(),
  deleteCount: z.number(),
  rows: z.array(SkeletonRow),
  previews: z.array(Row).optional(),
  counts: CountSlice.optional(),
  /** The whole file's token figure, for a view of a session's threads (as `TokenCounts.fileTotal`). */
  fileTotal: z.number().optional(),
  /** Its threads' figures (as `TokenCounts.threadTotals`). */
  threadTotals: z.record(z.string(), z.number()).optional(),
});
export type SkeletonDelta = z.infer<typeof SkeletonDelta>;

/** Every message's counts, with the conversation they are of and their total. */
export const TokenCounts = CountSlice.extend({
  path: z.string(),
  conversation: z.number(),
  total: z.number(),
  /** The whole file's figure, as the sidebar gives it, when this conversation is one view of a session's threads. */
  fileTotal: z.number().optional(),
  /** Per thread of the session (by its conversation), its figure: a Task call's row shows its sub-agent's. */
  threadTotals: z.record(z.string(), z.number()).optional(),
});
export type TokenCounts = z.infer<typeof TokenCounts>;

const baseUrl = z
  .string()
  .max(500)
  .refine((u) => /^https?:\/\/[^\s/]+/i.test(u), { message: 'an http:// or https:// URL' });

const px = z.number().finite().min(0).max(10_000);
/**
 * How the screen was left: pane sizes, column widths, the detail's fold. Kept with the settings, not in the
 * page's storage, which belongs to one address (browser mode takes a new port each run).
 */
export const UiPrefs = z
  .object({
    layout: z.object({ sidebar: px, panel: px, detail: px }).partial(),
    columns: z.record(z.string().max(40), px),
    detailCollapsed: z.boolean(),
  })
  .partial();
export type UiPrefs = z.infer<typeof UiPrefs>;

/** No defaults here: a patch names only what it changes, and the store fills the rest (a default would overwrite). */
export const Settings = z.object({
  model,
  /** An OpenAI-compatible endpoint for summaries (OpenAI, Ollama, llama.cpp, vLLM). The key is never here. */
  summaryBaseUrl: baseUrl,
  summaryModel: z.string().min(1).max(100),
  ui: UiPrefs,
  /** Price rows (per million tokens) that take the place of the dated table's, by model name prefix. */
  prices: z.record(z.string().max(200), z.object({ input: z.number().min(0), cacheRead: z.number().min(0), cacheWrite: z.number().min(0).optional(), output: z.number().min(0) })),
  /** Who speaks under a name, as the user set it, per file (absolute path → spelled role → normal role). */
  roleOverrides: z.record(z.string().max(4096), z.record(z.string().max(200), NormalRole)),
});
export type Settings = z.infer<typeof Settings>;
export const SettingsPatch = Settings.partial().strict();

export const RecentFolder = z.object({ path: z.string(), name: z.string(), openedAt: z.number() });
export type RecentFolder = z.infer<typeof RecentFolder>;

const MessageInput = z.record(z.string(), z.unknown()).refine((m) => typeof m.role === 'string' && m.role !== '', { message: 'a message needs a role' });
const RecordInput = z.record(z.string(), z.unknown());
const indexes = z.array(z.number().int().min(0)).min(1).max(100_000);

/** Edits as data (the same commands src/core/editing applies). */
export const EditCommandInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('update'), index: z.number().int().min(0), patch: z.record(z.string(), z.unknown()), remove: z.array(z.string()).optional() }),
  z.object({ type: z.literal('insert'), index: z.number().int().min(0), messages: z.array(MessageInput).min(1).max(10_000) }),
  z.object({ type: z.literal('delete'), indexes }),
  z.object({ type: z.literal('move'), indexes, to: z.number().int().min(0) }),
  z.object({ type: z.literal('duplicate'), indexes }),
  /** A message's readable text replaced, in any format (where the format can set it). */
  z.object({ type: z.literal('set-text'), index: z.number().int().min(0), text: z.string().max(50_000_000) }),
  /** A record replaced as a whole (the raw JSON editor). */
  z.object({ type: z.literal('replace'), index: z.number().int().min(0), record: RecordInput }),
]);
export type EditCommandInput = z.infer<typeof EditCommandInput>;

/**
 * The state of a document's edits a request was made on (EditState.version, Skeleton.editVersion). Several
 * windows share one document: a request on a state that has changed since is refused with STALE.
 */
const editVersion = z.number().int();
/** A window of the app, as it names itself for the life of its page. */
const windowId = z.string().min(1).max(100).optional();

export const EditState = z.object({
  path: z.string(),
  conversation: z.number(),
  /**
   * Which state of the document's edits this is: it changes with every change to the records any of its
   * conversations shows (an edit, undo, redo, reload, merge, another path of a tree, a read from disk), in any
   * window, and never repeats.
   */
  version: z.number(),
  count: z.number(),
  dirty: z.boolean(),
  conflict: z.boolean(),
  canUndo: z.string().optional(),
  canRedo: z.string().optional(),
  /** What the edit changed, from the skeleton the renderer was last sent (absent when there is none to build on). */
  delta: SkeletonDelta.optional(),
  /** The file's stored token_counts are in another encoding than the picked model's: edits are recounted in theirs. */
  storedCounts: z.object({ encoding: z.string(), picked: z.string(), matches: z.number(), sampled: z.number() }).optional(),
  /**
   * Another program is writing the file: it grew by appends lately (`appendedAt`, ms since epoch), and/or these
   * processes have it open for writing (as last looked). A save merges what it adds and never cuts it off.
   */
  live: z.object({ appendedAt: z.number().optional(), writers: z.array(z.object({ pid: z.number(), name: z.string() })) }).optional(),
});
export type EditState = z.infer<typeof EditState>;

/** A secret or personal datum in a message: where, by which rule, masked; `key` names it to dismiss it. */
export const Finding = z.object({
  index: z.number(),
  rule: z.string(),
  label: z.string(),
  /** `path`: a user name in a home folder's path, or a USER/USERNAME value (replaced by <user> when shared; not redacted in place). */
  kind: z.enum(['secret', 'personal', 'path']),
  /** Where in the record ("content", "tool_calls[0].function.arguments"). */
  field: z.string(),
  key: z.string(),
  excerpt: z.string(),
  /** What was found, for marking it in the detail pane (never shown whole elsewhere). */
  value: z.string(),
  dismissed: z.boolean(),
});
export type Finding = z.infer<typeof Finding>;

const ShareFormat = z.enum(['html', 'markdown']);
const Shared = z.object({
  filename: z.string(),
  text: z.string(),
  mime: z.string(),
  /** The redaction report, written beside the transcript. */
  report: z.object({ filename: z.string(), text: z.string() }).optional(),
  redacted: z.number(),
  messages: z.number(),
});

const SearchStatus = z.object({ files: z.number(), messages: z.number(), pending: z.number(), building: z.boolean() });

/** How far the session catalog is: files and sessions in it; while it reads the folders, files done of those found. */
const CatalogStatus = z.object({ files: z.number(), sessions: z.number(), done: z.number(), total: z.number(), building: z.boolean(), /** Every session is listed with its usage; while building, what is left is reading files whole for search. */ listed: z.boolean().optional(), /** Files still to be looked into for secrets. */ secretsPending: z.number() });

/** A session of the catalog, as the sidebar's Sessions list and the usage view show it. */
export const SessionEntry = z.object({
  id: z.number(),
  path: z.string(),
  conversation: z.number(),
  format: z.string().optional(),
  formatLabel: z.string().optional(),
  tool: z.string().optional(),
  sessionId: z.string().optional(),
  parentPath: z.string().optional(),
  parentSessionId: z.string().optional(),
  agentId: z.string().optional(),
  kind: z.enum(['session', 'subagent', 'log']),
  title: z.string().optional(),
  project: z.string().optional(),
  firstAt: z.string().optional(),
  lastAt: z.string().optional(),
  models: z.array(z.string()),
  messages: z.number(),
  prompts: z.number(),
  calls: z.number(),
  inputCalls: z.number(),
  outputCalls: z.number(),
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  reasoning: z.number(),
  costUsd: z.number().optional(),
  unpriced: z.array(z.string()),
  /** Secrets found in it (absent until looked into). */
  secrets: z.number().optional(),
  modifiedMs: z.number(),
});
export type SessionEntry = z.infer<typeof SessionEntry>;

/**
 * What the opened folders hold that the session list does not show: databases of tools not read here (by what
 * they hold: "Zed threads"), tools' logs and indexes kept beside their sessions (searched, not sessions), files of
 * no message, files that do not read; `files` names the first of them (as the sidebar does), each with why.
 */
const NotListed = z.object({
  databases: z.array(z.object({ label: z.string(), files: z.number() })),
  logs: z.number(),
  empty: z.number(),
  unreadable: z.number(),
  files: z.array(z.object({ path: z.string(), why: z.enum(['unread', 'unreadable', 'log', 'empty']), label: z.string().optional(), readFrom: z.string().optional() })),
});
export type NotListed = z.infer<typeof NotListed>;

const UsageRow = z.object({ key: z.string(), calls: z.number(), sessions: z.number(), input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number(), costUsd: z.number(), unpricedCalls: z.number(), inputCalls: z.number() });
export type UsageRow = z.infer<typeof UsageRow>;
export type CatalogStatus = z.infer<typeof CatalogStatus>;
const SearchAnswer = z.object({
  query: z.string(),
  /** Hits without a snippet yet get theirs from `search:snippets`. */
  /**
   * `shown`: where the table shows the message when that is not the file's order (a thread's row; null: on no
   * thread shown until asked; `offPath` says why). `spelled`: its role as the file and the table spell it, where `role` (by which
   * search filters) is the normalised one.
   */
  hits: z.array(z.object({ path: z.string(), format: z.string(), conversation: z.number(), index: z.number(), role: z.string(), snippet: z.string().optional(), match: z.tuple([z.number(), z.number()]).optional(), shown: shownRow, offPath, spelled: z.string().optional() })),
  total: z.number(),
  files: z.number(),
  /** Counting stopped: total and files are at least these. */
  atLeast: z.boolean(),
  /** All the matches of each file with hits listed. */
  fileTotals: z.record(z.string(), z.number()),
  truncated: z.boolean(),
  /** A regular expression's scan stopped at its time limit (this many ms): the files after were not searched. */
  outOfTime: z.number().optional(),
  status: SearchStatus,
});
export type SearchAnswer = z.infer<typeof SearchAnswer>;
export type SearchHitRow = SearchAnswer['hits'][number];

const CompareSideInput = z.object({ path: relPath, conversation, branch: z.object({ at: z.number().int().min(0), option: z.number().int().min(0) }).optional(), leaf: z.number().int().min(0).optional() });
export type CompareSideInput = z.infer<typeof CompareSideInput>;
const CompareFigures = z.object({ messages: z.number(), tokens: z.number(), cost: z.number().optional(), costEstimated: z.boolean().optional() });
const CompareRange = z.tuple([z.number(), z.number()]);
export const CompareAnswer = z.object({
  sides: z.array(
    z.object({
      path: z.string(),
      conversation: z.number(),
      /** For people: "main thread", "the branch at row 5". */
      what: z.string(),
      title: z.string(),
      figures: CompareFigures,
      /** Each message (a response's lines one): `at` its row in the conversation's path, `text` cut at a length (`more` characters left out). */
      messages: z.array(z.object({ role: z.string(), normalRole: z.string(), text: z.string(), more: z.number().optional(), tokens: z.number(), cost: z.number().optional(), costEstimated: z.boolean().optional(), at: z.number(), lines: z.number() })),
    }),
  ),
  rows: z.array(z.object({ kind: z.enum(['same', 'changed', 'only-left', 'only-right']), turn: z.number(), left: z.number().optional(), right: z.number().optional(), tokens: z.number(), cost: z.number().optional(), costEstimated: z.boolean().optional(), words: z.object({ left: z.array(CompareRange), right: z.array(CompareRange) }).optional(), whitespaceOnly: z.boolean().optional() })),
  turns: z.array(z.object({ start: z.number(), end: z.number(), left: CompareFigures, right: CompareFigures, differs: z.boolean() })),
  differences: z.array(z.number()),
  counts: z.object({ same: z.number(), changed: z.number(), 'only-left': z.number(), 'only-right': z.number() }),
  delta: z.object({ messages: z.number(), tokens: z.number(), cost: z.number().optional(), costEstimated: z.boolean().optional() }),
  /** What the tokens were counted with (one tokenizer for both sides); an estimate says what stands in. */
  countedWith: z.string(),
  approximate: z.boolean(),
});
export type CompareAnswer = z.infer<typeof CompareAnswer>;

export const requests = {
  'app:info': {
    input: z.object({}),
    /** `service`: whether documents live on the service's own thread (as shipped) or on this one (from source). */
    output: z.object({ roots: z.array(z.string()), mode: z.enum(['electron', 'browser']), version: z.string(), service: z.enum(['worker', 'in-process']) }),
  },
  'dir:list': {
    input: z.object({ root: z.string().optional() }),
    /** Every conversation file under the folder; `truncated` when the cap stopped the walk, `tooDeep` folders past the depth limit. */
    output: z.object({ root: z.string(), entries: z.array(DirEntry), truncated: z.boolean(), tooDeep: z.number() }),
  },
  'conversation:open': { input: z.object({ path: relPath, conversation }), output: Skeleton },
  /**
   * The first messages of a file from its head alone (its first half megabyte), to show while the whole file
   * is read: a skeleton of those messages (version -1: nothing builds on it) and their rows. No skeleton when
   * the head tells nothing (YAML, Markdown) or the file is open already.
   */
  'conversation:peek': {
    input: z.object({ path: relPath, conversation, /** Both ends: every message's place, the first and last read (see `ends`). */ ends: z.boolean().optional() }),
    /**
     * With `ends`, a JSON file whose records are its list's elements (one conversation, no tree): a skeleton of all its
     * messages, those between the ends unread (role UNREAD_ROLE), `rows` the tail's from `from`, after `head`
     * messages of the head. No skeleton where the ends cannot tell the whole.
     */
    output: z.object({ skeleton: Skeleton.optional(), rows: z.array(Row), size: z.number(), read: z.number(), estimated: z.number().optional(), from: z.number().optional(), head: z.number().optional() }),
  },
  /**
   * Where message `index` of a session read a part at a time is (numbered across its parts, 0 its first), from
   * the path of any of its parts: the part's path, its number (1 for the first) and the message's place in it,
   * with `first` the session's number of the part's first message; or, past the session's last message, how many
   * it holds. The parts before it are read to count them ("go to #N" in a part other than the one open).
   */
  'conversation:locate': {
    input: z.object({ path: relPath, index: z.number().int().min(0) }),
    output: z.discriminatedUnion('found', [
      z.object({ found: z.literal(true), path: z.string(), part: z.number().int(), parts: z.number().int(), index: z.number().int(), first: z.number().int() }),
      z.object({ found: z.literal(false), count: z.number().int(), parts: z.number().int() }),
    ]),
  },
  /**
   * The conversation as it is now (after a change on disk or in another window), as a delta from the skeleton
   * of version `since` when main still has it, else whole.
   */
  'conversation:update': {
    input: z.object({ path: relPath, conversation, since: z.number().int(), model: model.optional() }),
    output: z.union([z.object({ delta: SkeletonDelta }), z.object({ skeleton: Skeleton })]),
  },
  'conversation:rows': {
    /** With `model`: each row with its counts (counted now when they are not known yet). */
    input: z.object({ path: relPath, conversation, start: z.number().int().min(0), count: z.number().int().min(1).max(2000), model: model.optional() }),
    output: z.object({ rows: z.array(Row) }),
  },
  'conversation:message': {
    /** `full`: all of it, however long (the editor, "Show all"); else strings past 256 KB are cut (`truncated`). */
    input: z.object({ path: relPath, conversation, index: z.number().int().min(0), full: z.boolean().default(false) }),
    /** The record as the file has it, the message it is (parts), its readable text, and its own text in the file. */
    output: z.object({
      index: z.number(),
      message: z.record(z.string(), z.unknown()),
      view: MessageViewSchema,
      text: z.string(),
      raw: z.string(),
      editableText: z.boolean(),
      truncated: z.object({ text: z.number(), raw: z.number() }).optional(),
    }),
  },
  /**
   * The messages of a range as the transcript reads them (their parts), each string past TRANSCRIPT_LIMIT cut to it
   * (`cut`: the message's readable text was longer; `conversation:message` with `full` has all of it).
   */
  'conversation:views': {
    input: z.object({ path: relPath, conversation, start: z.number().int().min(0), count: z.number().int().min(1).max(500) }),
    output: z.object({ views: z.array(MessageViewSchema.extend({ index: z.number(), cut: z.number().optional() })) }),
  },
  /**
   * The conversation's model calls as the service reads them (apiCalls: a response's lines and the results of its
   * tool calls; Claude Code's lines by message.id): per call, its first and last message. `version`: the skeleton's.
   */
  'conversation:calls': {
    input: z.object({ path: relPath, conversation }),
    output: z.object({ version: z.number(), first: z.array(z.number()), last: z.array(z.number()) }),
  },
  /**
   * The conversation's turns (one API call each: its lines and the tool results it waited for), with each one's
   * tokens and cost: as the API reported them where the file records it, else estimated (`estimated`) from the
   * counts made for `model`: the input what came before the call since the last compaction, the output its lines.
   */
  'conversation:turns': {
    input: z.object({ path: relPath, conversation, model }),
    /** `sessionUsd`: where the file reports totals beside its calls (a Copilot CLI run's, whose calls record their output alone), the session's cost with them in. */
    output: z.object({ turns: z.array(TurnFiguresSchema), pricesDated: z.string(), sessionUsd: z.number().optional() }),
  },
  /** Milliseconds since the epoch per message (-1 when absent or unreadable): fetched only to sort by time. */
  'conversation:times': { input: z.object({ path: relPath, conversation }), output: z.object({ times: z.array(z.number()) }) },
  'conversation:search': {
    input: z.object({ path: relPath, conversation, query: z.string().max(1000) }),
    output: z.object({ matches: z.array(z.number()) }),
  },
  'tokens:count': { input: z.object({ path: relPath, conversation, model }), output: TokenCounts },
  /** The tokens of a text being typed (the editor's live count), by the content rule the table counts with. */
  'tokens:text': { input: z.object({ model, text: z.string().max(4 * 1024 * 1024) }), output: z.object({ tokens: z.number(), encoding: z.string() }) },
  /** Every conversation under the opened folders: words (each beginning a word of the message) or a regex. */
  'search:query': {
    input: z.object({
      query: z.string().max(1000),
      regex: z.boolean().default(false),
      roles: z.array(z.enum(['system', 'user', 'assistant', 'tool', 'other'])).max(5).default([]),
      formats: z.array(z.string().min(1).max(100)).max(50).default([]),
      limit: z.number().int().min(1).max(2000).default(200),
    }),
    output: SearchAnswer,
  },
  /** The sessions of the opened folders from the catalog: recent or costly first, filtered by tool, model, dates and secrets found. */
  'catalog:sessions': {
    input: z.object({
      sort: z.enum(['recent', 'cost']).default('recent'),
      tool: z.string().min(1).max(200).optional(),
      model: z.string().min(1).max(200).optional(),
      from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
      to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
      /** Only sessions in which secrets were found. */
      secrets: z.boolean().optional(),
      limit: z.number().int().min(1).max(5000).default(5000),
    }).strict(),
    output: z.object({ sessions: z.array(SessionEntry), total: z.number(), tools: z.array(z.string()), models: z.array(z.string()), status: CatalogStatus, notListed: NotListed.optional() }),
  },
  /** Reported usage and its cost at list prices over the opened folders, by day, project, model or tool; the costliest sessions and calls. */
  'catalog:usage': {
    input: z.object({ by: z.enum(['day', 'project', 'model', 'tool']).default('day') }).strict(),
    output: z.object({
      by: z.enum(['day', 'project', 'model', 'tool']),
      rows: z.array(UsageRow),
      sessions: z.array(SessionEntry),
      calls: z.array(z.object({ path: z.string(), conversation: z.number(), index: z.number(), at: z.string().optional(), model: z.string().optional(), costUsd: z.number(), input: z.number().optional(), output: z.number().optional(), title: z.string().optional() })),
      pricesDated: z.string(),
      status: CatalogStatus,
    }),
  },
  /** The matching lines of hits an answer listed without one (their files not read in its time). */
  'search:snippets': {
    input: z.object({ query: z.string().max(1000), regex: z.boolean().default(false), hits: z.array(z.object({ path: relPath, conversation, index: z.number().int().min(0) })).max(500) }),
    output: z.object({ hits: z.array(z.object({ path: z.string(), conversation: z.number(), index: z.number(), snippet: z.string().optional(), match: z.tuple([z.number(), z.number()]).optional(), shown: shownRow, offPath, spelled: z.string().optional() })) }),
  },
  /** Exactly what the model would see after a strategy: planned with the text, in main. */
  'window:preview': {
    input: z.object({ path: relPath, conversation, model, strategy: z.string().min(1).max(100), params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])) }),
    /**
     * `shape`: the request as the agent's API takes it, or the swarms history string; `messages` those the
     * request holds; `system` whether the file holds a system prompt it carries.
     */
    output: z.object({ text: z.string(), tokens: z.number(), messages: z.number(), summaries: z.number(), shape: z.enum(['swarms-history', 'openai-chat', 'anthropic-messages', 'openai-responses']).optional(), system: z.boolean().optional(), /** Compactions the planned messages run through: no request ever held them all. */ compactions: z.number().optional(), /** What was changed so the provider would take the request (a call with no result in the file answered as such). */ notes: z.array(z.string()).optional() }),
  },
  /** `version`: the state the command's indexes were computed on (STALE when the document has changed since). */
  /**
   * `window`: which window of the app asks (any string it keeps for its life). An undo or redo steps over an
   * edit only in the window that made it: another window's is refused (STALE), never undone without a word.
   */
  'edit:apply': { input: z.object({ path: relPath, conversation, version: editVersion, command: EditCommandInput, window: windowId }), output: EditState },
  'edit:undo': { input: z.object({ path: relPath, conversation, version: editVersion, window: windowId }), output: EditState },
  'edit:redo': { input: z.object({ path: relPath, conversation, version: editVersion, window: windowId }), output: EditState },
  'edit:state': { input: z.object({ path: relPath, conversation }), output: EditState },
  /** CONFLICT when the file changed on disk since it was read, unless force (Keep mine). */
  /**
   * `force` overwrites a file that changed on disk (Keep mine); `acceptProblems` writes a file its tool would
   * no longer read whole (INVALID says what first).
   */
  /**
   * Saves in place. What another program added to the file meanwhile is merged in (`merged`: records of the file
   * on disk kept); `force` (Keep mine) keeps my side where both changed a message. `appended`: the edits only added
   * lines at the end of a session and were appended in place. BUSY: another program has the file open for writing.
   */
  'edit:save': {
    input: z.object({ path: relPath, version: editVersion, force: z.boolean().default(false), acceptProblems: z.boolean().default(false) }),
    output: EditState.extend({ merged: z.object({ added: z.number(), changed: z.number(), removed: z.number() }).optional(), appended: z.boolean().optional() }),
  },
  /**
   * Save As: a new file inside the opened folders; the open document stays as it is. With `version`, refused
   * (STALE) when the document changed since. Edits whose file was swapped for a link out of the opened folders
   * can still be saved this way.
   */
  'edit:save-as': { input: z.object({ path: relPath, target: relPath, version: editVersion.optional() }), output: z.object({ target: z.string() }) },
  /** Stops a save under way before it replaces anything (it answers CANCELLED); nothing when none is. */
  'edit:cancel-save': { input: z.object({ path: relPath }), output: z.object({ cancelling: z.boolean() }) },
  /**
   * Revert or Reload: the file as it is on disk; unsaved edits and the undo history are dropped. Refused (STALE)
   * when the edits changed since `version`: a window never drops edits it has not shown.
   */
  'edit:revert': { input: z.object({ path: relPath, version: editVersion }), output: EditState },
  'edit:export': {
    input: z.object({ path: relPath, conversation, format: z.string().min(1).max(100) }),
    output: z.object({ filename: z.string(), text: z.string(), mime: z.string() }),
  },
  /**
   * Secrets and personal data in the messages a conversation shows (each rule's match, its field and a masked
   * excerpt; `value` only to mark it on screen), and how many are in the file's records that are not messages.
   */
  'secrets:list': {
    input: z.object({ path: relPath, conversation }),
    output: z.object({
      findings: z.array(Finding),
      /** Past this many findings the rest are not listed (each row still says it has some). */
      truncated: z.boolean(),
      /** Found in the file's records that are not messages (they are in no row). */
      elsewhere: z.number(),
    }),
  },
  /** False positives dismissed (or brought back), kept per file in the state folder; answers the file's figures. */
  'secrets:dismiss': {
    input: z.object({ path: relPath, keys: z.array(z.string().min(1).max(200)).min(1).max(100_000), dismissed: z.boolean() }),
    output: z.object({ secrets: z.number(), personal: z.number() }),
  },
  /** Every finding (not dismissed) of these messages, or of all the conversation shows, replaced by [REDACTED:<rule>]: one undoable edit. */
  'secrets:redact': {
    input: z.object({ path: relPath, conversation, version: editVersion, indexes: z.array(z.number().int().min(0)).max(10_000_000).optional() }),
    /** `signed`: reasoning blocks the API signed that a redaction changed (the API refuses them when resumed). */
    output: EditState.extend({ redacted: z.number(), signed: z.number().optional() }),
  },
  /**
   * A transcript to share (one self-contained HTML page, or Markdown) of what a conversation shows, the messages
   * picked, or the whole file (every thread, every conversation), redacted unless asked not to, with its report.
   */
  'share:export': {
    input: z.object({ path: relPath, conversation, to: ShareFormat, scope: z.enum(['conversation', 'selection', 'file']), indexes: z.array(z.number().int().min(0)).max(10_000_000).optional(), redact: z.boolean().default(true), /** With redact: user names in paths replaced by <user>. */ paths: z.boolean().default(true) }),
    output: Shared,
  },
  /** Every conversation file of the opened folder in one transcript (each file a part of it). */
  'share:export-folder': { input: z.object({ to: ShareFormat, redact: z.boolean().default(true), paths: z.boolean().default(true) }), output: Shared },
  /** Earlier versions kept before each save, newest first. */
  'history:list': {
    input: z.object({ path: relPath }),
    output: z.object({ versions: z.array(z.object({ id: z.string(), savedAt: z.number(), bytes: z.number(), messages: z.number().optional(), error: z.string().optional() })) }),
  },
  /** What changed from a kept version to the file on disk now, line by line (long unchanged runs folded). */
  'history:diff': {
    input: z.object({ path: relPath, id: z.string().min(1).max(100) }),
    output: z.object({ lines: z.array(z.object({ kind: z.enum(['same', 'added', 'removed', 'folded']), text: z.string(), count: z.number().optional(), changed: z.array(z.tuple([z.number(), z.number()])).optional() })), added: z.number(), removed: z.number(), tooLarge: z.boolean() }),
  },
  /** Restores a version as one undoable edit (nothing is written until Save). */
  'history:restore': { input: z.object({ path: relPath, id: z.string().min(1).max(100), version: editVersion }), output: EditState },
  /** Where the plan made with the full text cuts one message: the text the cut is made in, and the offset. */
  'window:cut': {
    input: z.object({ path: relPath, conversation, model, strategy: z.string().min(1).max(100), params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])), index: z.number().int().min(0) }),
    output: z.object({ fate: z.enum(['kept', 'dropped', 'cut', 'summarised']), cut: z.object({ text: z.string(), basis: z.enum(['content', 'rendered']), keep: z.enum(['start', 'end']), offset: z.number() }).optional() }),
  },
  /** Mine (the open document) and theirs (the file on disk), one compact line per message, for a side-by-side diff. */
  'edit:compare': { input: z.object({ path: relPath, conversation }), output: z.object({ mine: z.array(z.string()), theirs: z.array(z.string()), theirsError: z.string().optional() }) },
  /**
   * The file changed on disk while edited: my edits re-applied on top of it, where they touch messages it
   * left as they were; where both changed one message, a conflict with the changed words marked.
   */
  /**
   * Which path of a tree conversation is shown: another choice at a fork (`at` a position of the path,
   * `option` among the fork's), and the whole session past its compactions or only since the last one.
   */
  'conversation:path': {
    input: z.object({ path: relPath, conversation, at: z.number().int().min(0).optional(), option: z.number().int().min(0).optional(), whole: z.boolean().optional(), /** A leaf of the thread by its index among the file's records (the tree view's). */ leaf: z.number().int().min(0).optional() }),
    output: z.object({ delta: SkeletonDelta }),
  },
  /**
   * Every branch of the thread a conversation shows, as segments (runs with one way on), depth first: what the
   * tree view draws. Indexes are among the file's records; `shown` marks the segments on the path shown.
   */
  'conversation:outline': {
    input: z.object({ path: relPath, conversation }),
    output: z.object({
      segments: z.array(z.object({ first: z.number(), last: z.number(), length: z.number(), depth: z.number(), leaf: z.number(), compacted: z.boolean(), shown: z.boolean(), firstText: z.string(), lastText: z.string(), leafText: z.string(), /** What the file calls the run's first message as a branch ("rank 0"), where it does. */ label: z.string().optional() })),
      truncated: z.boolean(),
      /** Where the thread forks (forkPoints: the header's and the CLI's count). */
      forks: z.number(),
    }),
  },
  /**
   * Where a message of the file (`conversation` and `index` as the file holds them: a search hit) is shown: the
   * conversation of the app (a thread) and its row, the thread's path moved onto it (another branch, the
   * history before a compaction); `delta` when that conversation was shown already.
   */
  'conversation:reveal': {
    input: z.object({ path: relPath, conversation, index: z.number().int().min(0) }),
    output: z.object({ conversation: z.number(), index: z.number(), delta: SkeletonDelta.optional() }),
  },
  /**
   * The files a Claude Code or Codex session is spread over: its sub-agents' own files (`<session>/subagents/agent-*.jsonl`;
   * the rollouts a Codex session spawned, its reviews and guardians; `task` the row of the call that ran each), the
   * session a sub-agent file is of, and the earlier file a resumed session goes on from (`continues.path` when found beside it).
   */
  'conversation:links': {
    input: z.object({ path: relPath, conversation }),
    output: z.object({
      /** `kind`: what started it (sub-agent, compaction, side question; Codex: spawned, review, guardian). */
      subagents: z.array(z.object({ path: z.string(), agentId: z.string(), bytes: z.number(), kind: z.string().optional(), title: z.string().optional(), agentType: z.string().optional(), model: z.string().optional(), task: z.number().optional() })),
      /** The session this file is a thread of: `path` where its file is in the opened folders; `thread` this file's id in it. */
      parent: z.object({ path: z.string().optional(), sessionId: z.string(), thread: z.string().optional(), kind: z.string().optional(), name: z.string().optional() }).optional(),
      continues: z.object({ uuid: z.string(), path: z.string().optional() }).optional(),
    }),
  },
  /** The names the messages are spelled with that are not roles, and what each is read as, and why. */
  'conversation:roles': { input: z.object({ path: relPath, conversation }), output: z.object({ roleMapping: z.array(RoleMappingEntry) }) },
  /** Reads the messages spelled `role` as `normalRole` in this file from now on (null: as the file says). */
  'conversation:set-role': { input: z.object({ path: relPath, conversation, role: z.string().min(1).max(200), normalRole: NormalRole.nullable() }), output: z.object({ delta: SkeletonDelta.optional(), roleMapping: z.array(RoleMappingEntry) }) },
  'edit:merge-preview': { input: z.object({ path: relPath }), output: MergePreview },
  /** The merge applied (as one undoable edit on the file as it is on disk now); `choices` settle the conflicts in order. */
  'edit:merge': { input: z.object({ path: relPath, version: editVersion, choices: z.array(z.enum(['mine', 'theirs'])).max(100_000).default([]) }), output: EditState },
  /**
   * Compaction: 'dropped' summarises what the strategy drops (kept messages stay, cuts apply); 'all' is the
   * spec's compact (static context, then one summary). Preview first; apply is one undoable edit.
   */
  'window:compact': {
    input: z.object({
      path: relPath,
      conversation,
      model,
      mode: z.enum(['dropped', 'all']),
      strategy: z.string().min(1).max(100),
      params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])),
      summarizer: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('text'), text: z.string().min(1).max(1_000_000) }),
        /** `maxTokens` left out: the summary's budget scales with what it replaces (5%, 400 to 4,000 tokens). */
        z.object({ kind: z.literal('offline'), maxTokens: z.number().int().min(16).max(100_000).optional() }),
        z.object({ kind: z.literal('openai') }),
      ]),
      apply: z.boolean().default(false),
      /** The state the plan was made on: an applied compaction names it (STALE when the document changed since). */
      version: editVersion.optional(),
      /** Archive and re-seed the MEMORY.md next to the conversation (the spec's compact), when there is one. */
      archiveMemory: z.boolean().default(false),
    }),
    output: z.object({
      summary: z.string(),
      summaryTokens: z.number(),
      replaced: z.number(),
      messagesAfter: z.number(),
      tokensBefore: z.number(),
      tokensAfter: z.number(),
      state: EditState.optional(),
      /** The MEMORY.md beside the conversation, if any, and where it was archived when asked. */
      memory: z.object({ path: z.string(), archivedTo: z.string().optional() }).optional(),
    }),
  },
  /**
   * Two sessions, or two branches of one, side by side (src/core/compare): rows aligned message by message (a
   * response's lines one message), changed words as UTF-16 ranges of each side's `text`, turns (one call of the
   * model each) with their figures, and the totals. A side is a conversation's path as its agent resumes it,
   * whole; `branch` the path through another option at a fork of what is shown (`at` its position), `leaf` the
   * path to the newest leaf under a record of the file.
   */
  'compare:sessions': { input: z.object({ a: CompareSideInput, b: CompareSideInput }), output: CompareAnswer },
  /** Sets (or clears, with an empty string) the summariser's API key; answers only whether one is set. */
  'settings:set-api-key': { input: z.object({ apiKey: z.string().max(4096) }), output: z.object({ set: z.boolean(), storage: z.enum(['encrypted', 'memory']) }) },
  'settings:api-key-status': { input: z.object({}), output: z.object({ set: z.boolean(), storage: z.enum(['encrypted', 'memory']) }) },
  'settings:get': { input: z.object({}), output: Settings },
  'settings:set': { input: SettingsPatch, output: Settings },
  /** The open folder and the ones opened before (newest first, only those still there). */
  'folder:recent': {
    input: z.object({}),
    /** `browse`: whether folder:browse can list folders here (browser mode); Electron has its own dialog. */
    output: z.object({ current: z.array(z.string()), recent: z.array(RecentFolder), browse: z.boolean(), places: z.array(z.object({ name: z.string(), path: z.string() })) }),
  },
  /** The folders inside one (not files), within what this mode may open: browser mode's Open Folder dialog. */
  'folder:browse': {
    input: z.object({ path: z.string().max(4096).optional(), hidden: z.boolean().optional() }),
    output: z.object({ path: z.string(), parent: z.string().nullable(), dirs: z.array(z.object({ name: z.string(), path: z.string() })), truncated: z.boolean(), scope: z.array(z.string()) }),
  },
  /** Opens a folder in place of the current one; refused (CONFLICT) while edits are unsaved unless `discard`. */
  'folder:open': { input: z.object({ path: z.string().min(1).max(4096), discard: z.boolean().optional() }), output: z.object({ root: z.string() }) },
  /** Electron's own folder dialog, then as folder:open; `root` is null when the dialog was cancelled. */
  'folder:pick': { input: z.object({ discard: z.boolean().optional() }), output: z.object({ root: z.string().nullable() }) },
} as const;

export const events = {
  /** How far the search index is: files and messages in it, files still to read. */
  'search:progress': SearchStatus,
  /** How far the session catalog is (the Sessions list fills in as it reads). */
  'catalog:progress': CatalogStatus,
  /** Formats and counts of listed files, as the background read of their heads and contents finds them. */
  'dir:details': z.object({ root: z.string(), entries: z.array(DirEntry) }),
  /** Where a save is: its step of four, and the bytes written while it writes the file. */
  'save:progress': z.object({ path: z.string(), step: z.string(), at: z.number(), of: z.number(), done: z.number().optional(), total: z.number().optional(), writers: z.string().optional() }),
  'dir:changed': z.object({ root: z.string(), path: z.string(), kind: z.enum(['added', 'changed', 'removed']) }),
  /**
   * A document changed: by a request of some window (`version`, its edits' state now: a window showing another
   * one asks for the change), or on disk.
   */
  'conversation:changed': z.object({ path: z.string(), version: z.number().optional() }),
  /** The first screen's counts, sent before the rest of a long count is done. */
  'tokens:partial': z.object({ path: z.string(), conversation: z.number(), model: z.string(), start: z.number(), tokens: z.array(z.number()), toolTokens: z.array(z.number()), reasoningTokens: z.array(z.number()) }),
  'tokens:progress': z.object({ path: z.string(), done: z.number(), total: z.number() }),
  /** A menu item asks the renderer to run a command of its registry. */
  'command:run': z.object({ id: z.string() }),
  /** Another folder is open now: every window starts over on it. */
  'folder:opened': z.object({ root: z.string() }),
} as const;

// The zod-free channel lists (what the preload allowlists) must name exactly these requests and events.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const channelsMatch: [Same<keyof typeof requests, RequestName>, Same<keyof typeof events, EventName>] = [true, true];
void channelsMatch;
export type RequestInput<N extends RequestName> = z.input<(typeof requests)[N]['input']>;
export type ParsedInput<N extends RequestName> = z.output<(typeof requests)[N]['input']>;
export type RequestOutput<N extends RequestName> = z.infer<(typeof requests)[N]['output']>;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

export { REQUEST_NAMES, EVENT_NAMES };
export type { RequestName, EventName };

export const ERROR_CODES = ['BAD_INPUT', 'NOT_FOUND', 'FORBIDDEN', 'PARSE_ERROR', 'INTERNAL', 'UNKNOWN_CHANNEL', 'TOO_LARGE', 'CONFLICT', 'GONE', 'IO', 'INVALID', 'CANCELLED', 'STALE', 'BUSY'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AppError {
  code: ErrorCode;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** PARSE_ERROR: the syntax is sound, only the shape is none this tool reads (no "fix it in an editor"). */
  wellFormed?: boolean;
  /** INVALID: what the file's own tool could no longer read, one line each ("line 12: …"). */
  problems?: string[];
}

/** Errors do not survive Electron serialization, so they travel as data. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };
