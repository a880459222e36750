import { ConversationFileError } from '../../src/core/formats/errors.js';
import { requests, type AppError, type ParsedInput, type RequestName, type RequestOutput, type Result } from '../shared/contract.js';
import type { FolderRequestName } from '../shared/channels.js';
import { HandlerError } from '../shared/errors.js';

export type HandlerMap<C extends RequestName> = { [N in C]: (input: ParsedInput<N>) => Promise<RequestOutput<N>> | RequestOutput<N> };
/** What the document service answers: everything but the shell's choice of folder. */
export type Handlers = HandlerMap<Exclude<RequestName, FolderRequestName>>;

function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

function toAppError(e: unknown): AppError {
  if (e instanceof HandlerError) return { code: e.code, message: e.message, ...e.details };
  if (e instanceof ConversationFileError) return { code: 'PARSE_ERROR', message: e.message, file: e.file, line: e.line, column: e.column, ...(e.wellFormed ? { wellFormed: true } : {}) };
  // Never a stack trace in the UI: the message only.
  return { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e) };
}

/**
 * The one entry point for every request, whatever the transport: validates the channel and its input,
 * runs the handler, and answers `{ ok, value } | { ok: false, error }`. It never throws.
 */
export async function dispatch(handlers: Partial<HandlerMap<RequestName>>, name: unknown, input: unknown): Promise<Result<unknown>> {
  if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(requests, name) || !Object.prototype.hasOwnProperty.call(handlers, name)) {
    return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `unknown channel ${JSON.stringify(name)}` } };
  }
  const channel = name as RequestName;
  const parsed = requests[channel].input.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, error: { code: 'BAD_INPUT', message: `${channel}: ${describeIssues(parsed.error.issues)}` } };
  try {
    const handler = handlers[channel] as (i: unknown) => Promise<unknown> | unknown;
    return { ok: true, value: await handler(parsed.data) };
  } catch (e) {
    return { ok: false, error: toAppError(e) };
  }
}
