import type { Handlers } from '../dispatch.js';
import type { HandlerContext } from './context.js';
import { conversationHandlers } from './conversation.js';
import { conversationState } from './conversation-state.js';
import { directoryHandlers } from './directory.js';
import { settingsHandlers } from './settings.js';
import { windowHandlers } from './window.js';
import { editingHandlers } from './editing.js';
import { compactHandlers } from './compact.js';
import { searchHandlers } from './search.js';
import { catalogHandlers } from './catalog.js';
import { sessionLinkHandlers } from './session-links.js';
import { secretsHandlers } from './secrets.js';
import { shareHandlers } from './share.js';
import { compareHandlers } from './compare.js';
import { turnHandlers } from './turns.js';
import type { LocalHistory } from '../editing/local-history.js';
import { formatsReady } from '../../../src/core/formats/containers/index.js';

export type { HandlerContext } from './context.js';

/** Every request handler, one file per domain; the same map runs in Electron main and behind the server. */
export function createHandlers(ctx: HandlerContext & { localHistory?: LocalHistory }): Handlers {
  const state = conversationState(ctx);
  const handlers: Handlers = { ...directoryHandlers(ctx), ...conversationHandlers(ctx, state), ...settingsHandlers(ctx), ...windowHandlers(ctx), ...editingHandlers(ctx, state), ...compactHandlers(ctx, state), ...searchHandlers(ctx), ...catalogHandlers(ctx), ...sessionLinkHandlers(ctx), ...secretsHandlers(ctx, state), ...shareHandlers(ctx), ...compareHandlers(ctx), ...turnHandlers(ctx, state) };
  // Every reader loaded (SQLite's WebAssembly compiles in the background as the process starts) before the
  // first request reads a file; after that, one settled promise per request.
  const ready = formatsReady();
  const gated: Record<string, (input: never) => unknown> = {};
  for (const [name, handler] of Object.entries(handlers) as Array<[string, (input: never) => unknown]>) {
    gated[name] = async (input) => {
      await ready;
      return handler(input);
    };
  }
  return gated as unknown as Handlers;
}
