export const USAGE = `Usage: conversation-inspector <command> [options]

Commands:
  ls [DIR] [--json] [--model M]        conversation files in DIR (default ./conversations)
  show FILE [--model M] [--json]       every message with its token count, and the total
  tokens FILE [--model M] [--json]     token totals by role and by category
  convert FILE --to json|yaml [-o OUT] write the conversation in another format (stdout without -o)

Options:
  --model M   model or encoding used to count tokens (default gpt-5.4; e.g. gpt-4o, cl100k_base)
  --json      machine-readable output
  -h, --help  this text
`;

/** Bad usage: the caller prints the usage text and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Bad input that is not a conversation file error (a missing directory): one line, exit 1. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}
