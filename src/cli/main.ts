import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConversationFileError } from '../core/formats/errors.js';
import { SummarizerError } from '../core/summarize/types.js';
import { privateStateDir } from '../core/storage/private-dir.js';
import { DEFAULT_MODEL } from '../core/defaults.js';
import { commandUsage, InputError, usageText, UsageError } from './usage.js';

// Each command's module (and the engine it needs: the formats, the tokenizer, SQLite) is loaded when that command
// runs: `search` answered from the catalog, `--help` and the others start without compiling what they never use.
const commands = () => import('./commands.js');
const tokenizer = () => import('../core/tokenizer/index.js');

/** A command that lives outside the engine's CLI (browser mode's `serve`), added by the bin that bundles it. */
export interface ExtraCommand {
  /** Its line(s) in the usage text. */
  usage: string;
  run(rest: string[], options: { port?: string }): Promise<void>;
}

const OPTIONS = {
  json: { type: 'boolean', default: false },
  // Unset: show and tokens count for the session's own model (DEFAULT_MODEL where it names none).
  model: { type: 'string' },
  to: { type: 'string' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h', default: false },
  strategy: { type: 'string' },
  set: { type: 'string', multiple: true },
  summary: { type: 'string' },
  summarizer: { type: 'string' },
  'in-place': { type: 'boolean', default: false },
  'keep-recent': { type: 'string' },
  'base-url': { type: 'string' },
  'summary-model': { type: 'string' },
  port: { type: 'string' },
  format: { type: 'string' },
  depth: { type: 'string' },
  conversation: { type: 'string' },
  regex: { type: 'boolean', default: false },
  role: { type: 'string' },
  as: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  thread: { type: 'string' },
  whole: { type: 'boolean', default: false },
  at: { type: 'string' },
  redact: { type: 'boolean', default: false },
  'no-redact': { type: 'boolean', default: false },
  'keep-paths': { type: 'boolean', default: false },
  by: { type: 'string' },
  limit: { type: 'string' },
  all: { type: 'boolean', default: false },
} as const;

async function run(argv: string[], extra: Record<string, ExtraCommand>): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, ...rest] = positionals;
  const text = usageText(Object.values(extra));
  const lines = values.help ? commandUsage(text, command) : undefined;
  if (lines) {
    // `plan --help`: that command's lines, the strategies where it takes one, and the options.
    const block = (title: string) => text.slice(text.indexOf(title)).split(/\n\n/)[0].trimEnd();
    process.stdout.write(`Usage: conversation-inspector ${lines.trimStart()}\n\n${command === 'plan' ? `${block('Strategies:')}\n\n` : ''}${block('Options:')}\n\n(conversation-inspector --help: every command)\n`);
    return;
  }
  if (values.help || !command) {
    process.stdout.write(text);
    if (!command && !values.help) process.exitCode = 2;
    return;
  }
  if (command !== 'search') await readyToRead(argv);
  const model = values.model ?? DEFAULT_MODEL;
  const common = { json: values.json, model, sessionModel: values.model === undefined, format: values.format, depth: values.depth, conversation: values.conversation, as: values.as, thread: values.thread, whole: values.whole, at: values.at };
  if (values.model !== undefined && !(await tokenizer()).isKnownModel(values.model)) process.stderr.write(`note: "${values.model}" is not a model or encoding this tool knows; counting with o200k_base as an approximation\n`);
  const needFile = () => {
    if (rest.length !== 1) throw new UsageError(`${command} takes exactly one FILE`);
    return rest[0];
  };
  switch (command) {
    case 'ls':
      if (rest.length > 1) throw new UsageError('ls takes at most one DIR');
      return (await commands()).lsCommand(rest[0] ?? defaultDir('ls'), common);
    case 'show':
      return (await commands()).showCommand(needFile(), common);
    case 'tokens':
      return (await commands()).tokensCommand(needFile(), common);
    case 'convert':
      return (await commands()).convertCommand(needFile(), values.to, values.output, { format: values.format, as: values.as, cwd: values.cwd });
    case 'diff':
      return (await import('./diff-command.js')).diffCommand(rest, common);
    case 'plan':
      return (await import('./window-commands.js')).planCommand(needFile(), values.strategy, values.set ?? [], common);
    case 'sessions':
      if (rest.length > 1) throw new UsageError('sessions takes at most one DIR');
      return (await import('./usage-command.js')).sessionsCommand(rest[0] ?? defaultDir('sessions'), { json: values.json });
    case 'usage':
      if (rest.length > 1) throw new UsageError('usage takes at most one DIR');
      return (await import('./usage-command.js')).usageCommand(rest[0] ?? defaultDir('usage'), { by: values.by, json: values.json });
    case 'search':
      if (rest.length < 2) throw new UsageError('search takes a DIR and a QUERY');
      return (await import('./search-command.js')).searchCommand(rest[0], rest.slice(1).join(' '), { regex: values.regex, role: values.role, format: values.format, json: values.json, limit: values.limit, all: values.all });
    case 'compact':
      return (await import('./window-commands.js')).compactCommand(needFile(), {
        format: values.format,
        conversation: values.conversation,
        summary: values.summary,
        summarizer: values.summarizer,
        output: values.output,
        inPlace: values['in-place'],
        keepRecent: values['keep-recent'],
        model,
        baseUrl: values['base-url'],
        summaryModel: values['summary-model'],
      });
    case 'scan':
      if (rest.length !== 1) throw new UsageError('scan takes one DIR or FILE');
      return (await import('./share-commands.js')).scanCommand(rest[0], { json: values.json, format: values.format });
    case 'export':
      if (rest.length !== 1) throw new UsageError('export takes one FILE or DIR');
      return (await import('./share-commands.js')).exportCommand(rest[0], { to: values.to, output: values.output, redact: !values['no-redact'], paths: !values['keep-paths'], conversation: values.conversation, thread: values.thread, model, format: values.format });
    default:
      if (Object.hasOwn(extra, command)) return extra[command].run(rest, { port: values.port });
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** The token counts kept between runs, while a command that counts runs. */
let counts: { flush(): void } | undefined;

/**
 * What a command that reads files and counts tokens needs first. SQLite's reader is loaded when a database may be
 * read (a file so named, or a folder that may hold one); `search` loads it itself, only when it reads files.
 */
async function readyToRead(argv: readonly string[]): Promise<void> {
  const named = argv.slice(1).filter((a) => !a.startsWith('-'));
  const { formatsReady } = await import('../core/formats/containers/index.js');
  await formatsReady(named.length > 0 ? named : undefined);
  // Counts are kept between runs, as the app keeps them: showing a file counted before loads no encoding.
  const { CountCache, keepCountsIn } = await tokenizer();
  const cache = new CountCache(join(privateStateDir(), 'token-cache'));
  keepCountsIn(cache);
  counts = {
    flush() {
      cache.flush();
      keepCountsIn(undefined);
    },
  };
}

export async function main(argv: string[], extra: Record<string, ExtraCommand> = {}): Promise<number> {
  // `show big.json | head`: the reader went away, which is not an error of ours.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  try {
    await run(argv, extra);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    const err = e as Error & { code?: string };
    if (e instanceof UsageError || err.code?.startsWith('ERR_PARSE_ARGS')) {
      // A known command's mistake gets that command's lines; the whole text only when the command is unknown.
      if (e instanceof UsageError && e.brief) {
        process.stderr.write(`conversation-inspector: ${err.message}\n`);
        return 2;
      }
      const lines = commandUsage(usageText(Object.values(extra)), argv.find((a) => !a.startsWith('-')));
      process.stderr.write(`conversation-inspector: ${e instanceof UsageError ? err.message : parseArgsMessage(err.message)}\n\n${lines ? `Usage: conversation-inspector ${lines.trimStart()}\n(conversation-inspector --help: every command and option)\n` : usageText(Object.values(extra))}`);
      return 2;
    }
    // Bad input (a file that does not parse, a missing directory, an unwritable output): one line, no stack.
    const known = e instanceof ConversationFileError || e instanceof InputError || e instanceof SummarizerError;
    process.stderr.write(`conversation-inspector: ${known ? err.message : `error: ${err.message}`}\n`);
    return 1;
  } finally {
    counts?.flush();
    counts = undefined;
  }
}

/** The folder a command lists when given none: ./conversations, said plainly where there is none. */
function defaultDir(command: string): string {
  if (existsSync('conversations')) return 'conversations';
  throw new InputError(`no DIR given and no ./conversations folder here: conversation-inspector ${command} DIR (a folder of sessions, ~/.claude/projects say)`);
}

/** Node's words for a mistake in the options, in this tool's: "--bogus is not an option", "--by needs a value". */
export function parseArgsMessage(message: string): string {
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `${unknown[1]} is not an option (a value that starts with "-" goes after "--")`;
  const missing = /^Option '(-[^' ]+)[^']*' argument missing/.exec(message);
  if (missing) return `${missing[1]} needs a value`;
  const takesNone = /^Option '(-[^' ]+)[^']*' does not take an argument/.exec(message);
  if (takesNone) return `${takesNone[1]} takes no value`;
  return message;
}
