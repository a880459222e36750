import { parseArgs } from 'node:util';
import { ConversationFileError } from '../core/index.js';
import { convertCommand, lsCommand, showCommand, tokensCommand } from './commands.js';
import { InputError, USAGE, UsageError } from './usage.js';

const OPTIONS = {
  json: { type: 'boolean', default: false },
  model: { type: 'string', default: 'gpt-5.4' },
  to: { type: 'string' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function run(argv: string[]): void {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    if (!command && !values.help) process.exitCode = 2;
    return;
  }
  const common = { json: values.json, model: values.model };
  const needFile = () => {
    if (rest.length !== 1) throw new UsageError(`${command} takes exactly one FILE`);
    return rest[0];
  };
  switch (command) {
    case 'ls':
      if (rest.length > 1) throw new UsageError('ls takes at most one DIR');
      return lsCommand(rest[0] ?? 'conversations', common);
    case 'show':
      return showCommand(needFile(), common);
    case 'tokens':
      return tokensCommand(needFile(), common);
    case 'convert':
      return convertCommand(needFile(), values.to, values.output);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

export function main(argv: string[]): number {
  try {
    run(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    const err = e as Error & { code?: string };
    if (e instanceof UsageError || err.code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`conversation-inspector: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    // Bad input (a file that does not parse, a missing directory, an unwritable output): one line, no stack.
    const known = e instanceof ConversationFileError || e instanceof InputError;
    process.stderr.write(`conversation-inspector: ${known ? err.message : `error: ${err.message}`}\n`);
    return 1;
  }
}
