import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { FORMAT_IDS } from './format-ids.js';

const USAGE_TEMPLATE = `Usage: conversation-inspector <command> [options]

Commands:
  ls [DIR] [--json] [--depth N] [--model M]
                                       conversation files under DIR (default ./conversations), subfolders too
  show FILE [--conversation N] [--format ID] [--model M] [--thread ID|all] [--whole] [--at ID] [--json]
                                       every message with its token count, and the total; a session
                                       (Claude Code, Codex) shows its main thread since the last compaction,
                                       as the app does: --whole past compactions, --thread a sub-agent's,
                                       --thread all every record in file order, --at the branch through the
                                       message of that id (a rewind's, an edited prompt's, another answer's)
  tokens FILE [--format ID] [--model M] [--thread ID|all] [--whole] [--at ID] [--json]
                                       token totals by role and by category (of the same messages)
  diff A [B] [--at ID] [--thread ID] [--model M] [--json]
                                       two sessions side by side, message by message (a response's lines one
                                       message): what both have, what changed (words marked [-out-]{+in+}),
                                       what only one has, and B less A in tokens and cost per turn (one
                                       call of the model) and in all; each side whole, through compactions;
                                       --at ID: B's branch through that message (A's when B is not given:
                                       two branches of one session, the main thread on the left)
  convert FILE --to ID [-o OUT] [--cwd DIR]
                                       the conversation in another format (stdout without -o), valid for the
                                       target's own tool; a note for each thing it cannot hold or that had to
                                       change; json and yaml name the swarms formats; --cwd: where a new Claude
                                       Code or Codex session says it ran
  plan FILE --strategy NAME [--set key=value ...] [--conversation N] [--model M] [--thread ID|all]
          [--whole] [--at ID] [--json]
                                       what a context-window strategy keeps, cuts, drops or summarises (of
                                       the path show shows)
  compact FILE (--summary TEXT | --summarizer offline|openai) [--keep-recent N] [--conversation N]
          [-o OUT | --in-place]
                                       the static context plus one summary (stdout without -o)
  search DIR QUERY [--regex] [--role R] [--format ID] [--limit N | --all] [--json]
                                       messages matching QUERY in every file under DIR, tool calls and results
                                       too: each word of QUERY begins a word of the message, in any case
                                       (--regex: a JavaScript regular expression); --role and --format take
                                       comma-separated lists; each hit numbered as show lists it (a
                                       sub-agent's as ID:row, ⤷ for one show does not list by default);
                                       the first 300 hits printed, all counted (--limit N, --all; --json
                                       gives every hit unless --limit); words are looked up in the catalog
                                       (kept in the state folder, brought up to date first: only new or
                                       changed files are read)
  sessions [DIR] [--json]
                                       every session under DIR (default ./conversations), newest first: its
                                       tool, title, messages, output tokens and cost; sub-agents marked ↳
  usage [DIR] [--by day|project|model|tool] [--json]
                                       reported usage and cost added up over every session under DIR (by day
                                       unless --by), each model call once, and the most expensive sessions
  scan DIR|FILE [--json]
                                       secrets (provider keys, tokens, private keys, passwords in connection
                                       strings, JWTs) and personal data (e-mail, phone, public IP) in every
                                       message, tool call and result, and the records that are not messages
  export FILE|DIR --to html|md [--no-redact] [--keep-paths] [--thread ID|all] [--conversation N] [-o OUT]
                                       a transcript worth reading: one self-contained HTML page (no script,
                                       nothing fetched) or Markdown, tool calls as cards, reasoning folded, the
                                       figures and cost on top; a DIR gives one per file and an index (-o OUTDIR);
                                       redacted by default: each finding replaced by [REDACTED:<rule>], the
                                       report beside (OUT.redactions.txt), a value found once replaced wherever
                                       it stands, user names in paths by <user>; --no-redact keeps them
%EXTRA%
Strategies: dynamic-context-window (contextLength=8192, boundary=text|message), truncate (contextLength=8192),
  last-n (limit=10), sliding-window (windowSize=40), summarizing (contextWindowTokens=50000,
  keepRecentMessages=10, softThresholdTokens=4000), auto-compact (contextWindow, threshold: what Claude Code
  and Codex do, the default for their sessions), null; dynamic-context-window, last-n and sliding-window
  also take keepStatic=true|false (the system prompt and static context kept whole; on by default for the
  last two, off for the dynamic window, whose swarms history string really drops them)

Formats (--format ID, --to ID): %FORMATS%

Options:
  --model M   model or encoding used to count tokens (default: the session's own model, gpt-5.4 where the
              file names none; e.g. gpt-4o, cl100k_base)
  --format ID read FILE as this format instead of detecting it
  --json      machine-readable output
  --redact    export: every secret and personal datum found replaced, the report beside (the default)
  --no-redact export: the transcript as the file has it, findings and all
  --keep-paths export: user names in home folder paths and USER/USERNAME values kept (redacted by default)
  --as NAME=ROLE  read the messages spelled NAME as ROLE (user, assistant, system, tool), beside what the
              file declares (a swarms agent's user_name and agent_name); show, tokens, convert
  --summarizer openai reads OPENAI_API_KEY and OPENAI_BASE_URL (or --base-url URL) and --summary-model M
  -h, --help  this text
`;

/** The usage text, with the lines of commands the bin adds (browser mode's `serve`). */
export function usageText(extra: readonly { usage: string }[] = []): string {
  const wrapped = FORMAT_IDS.join(', ').replace(/(.{1,78})(, |$)/g, (_m, line: string, sep: string) => `${line}${sep.trim()}\n  `).trimEnd();
  return USAGE_TEMPLATE.replace('%EXTRA%', extra.map((command) => `${command.usage}\n`).join('')).replace('%FORMATS%', wrapped);
}

/** The lines of the usage text that describe one command, or nothing for a command it does not list. */
export function commandUsage(text: string, command: string | undefined): string | undefined {
  if (!command) return undefined;
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`  ${command} `) || l === `  ${command}`);
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && /^ {4,}/.test(lines[end])) end++;
  return lines.slice(start, end).join('\n');
}

/** Bad usage: the caller prints the command's usage lines (`brief`: one line, for a bad value) and exits 2. */
export class UsageError extends Error {
  readonly brief: boolean;
  constructor(message: string, opts: { brief?: boolean } = {}) {
    super(message);
    this.name = 'UsageError';
    this.brief = opts.brief === true;
  }
}

/** Bad input that is not a conversation file error (a missing directory): one line, exit 1. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/**
 * The folder a command reads every session under, resolved: a file is refused as a file ("crush.db: no such
 * directory" read as if it were not there), saying which command reads one file.
 */
export function folderArg(dir: string, command: string): string {
  const path = resolve(dir);
  if (!existsSync(path)) throw new InputError(`${dir}: no such directory`);
  if (!statSync(path).isDirectory()) throw new InputError(`${dir} is a file: ${command} reads every session under a folder (show FILE reads one file)`);
  return path;
}

/** `--conversation N`: a conversation of the file, numbered from 0 as `show` and `search` number them. */
export function conversationOption(raw: string, conversations: number): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 0 || n >= conversations) throw new UsageError(`--conversation takes 0..${conversations - 1}, not "${raw}"`);
  return n;
}
