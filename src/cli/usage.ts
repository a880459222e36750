export const USAGE = `Usage: conversation-inspector <command> [options]

Commands:
  ls [DIR] [--json] [--model M]        conversation files in DIR (default ./conversations)
  show FILE [--model M] [--json]       every message with its token count, and the total
  tokens FILE [--model M] [--json]     token totals by role and by category
  convert FILE --to json|yaml [-o OUT] write the conversation in another format (stdout without -o)
  plan FILE --strategy NAME [--set key=value ...] [--model M] [--json]
                                       what a context-window strategy keeps, cuts, drops or summarises
  compact FILE (--summary TEXT | --summarizer offline|openai) [--keep-recent N] [-o OUT | --in-place]
                                       the static context plus one summary (stdout without -o)
  serve [DIR] [--port N]               the inspector in a browser: prints "Serving DIR at URL" (127.0.0.1 only)

Strategies: dynamic-context-window (contextLength=8192, boundary=text|message), truncate (contextLength=8192),
  last-n (limit=10), sliding-window (windowSize=40), summarizing (contextWindowTokens=50000,
  keepRecentMessages=10, softThresholdTokens=4000), null

Options:
  --model M   model or encoding used to count tokens (default gpt-5.4; e.g. gpt-4o, cl100k_base)
  --json      machine-readable output
  --summarizer openai reads OPENAI_API_KEY and OPENAI_BASE_URL (or --base-url URL) and --summary-model M
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
