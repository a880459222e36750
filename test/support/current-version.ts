import { dispatch, type HandlerMap } from '../../app/service/dispatch.js';
import type { RequestName, Result } from '../../app/shared/contract.js';

/** Requests that name the state of the document's edits they were made on (refused as STALE otherwise). */
const VERSIONED = new Set(['edit:apply', 'edit:undo', 'edit:redo', 'edit:save', 'edit:revert', 'edit:merge', 'history:restore', 'secrets:redact']);

type Ask = (channel: string, input: unknown) => Promise<Result<unknown>>;

/**
 * A way of asking the service, as a window that always shows the document as it is now would ask: a request
 * that names no version is given the current one (edit:state's), or one no state has when there is none (the
 * handler then says why: a missing file, a bad path). Tests of how versions race name theirs themselves.
 */
export function askingNow(ask: Ask): Ask {
  return async (channel, input) => {
    const named = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
    const wants = VERSIONED.has(channel) || (channel === 'window:compact' && named?.apply === true);
    if (named && wants && !('version' in named)) {
      const state = await ask('edit:state', { path: named.path, conversation: named.conversation ?? 0 });
      return ask(channel, { ...named, version: state.ok ? (state.value as { version: number }).version : -1 });
    }
    return ask(channel, input);
  };
}

/** dispatch, asking as a window that shows the document as it is now (askingNow). */
export async function dispatchNow(handlers: Partial<HandlerMap<RequestName>>, channel: unknown, input: unknown): Promise<Result<unknown>> {
  if (typeof channel !== 'string') return dispatch(handlers, channel, input);
  return askingNow((c, i) => dispatch(handlers, c, i))(channel, input);
}
