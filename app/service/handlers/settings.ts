import type { Handlers } from '../dispatch.js';
import type { HandlerContext } from './context.js';
import { stateFailure } from '../state/state-errors.js';

export const API_KEY = 'summary-api-key';

export function settingsHandlers(ctx: HandlerContext): Pick<Handlers, 'settings:get' | 'settings:set' | 'settings:set-api-key' | 'settings:api-key-status'> {
  const status = () => ({ set: ctx.secrets.get(API_KEY) !== undefined, storage: ctx.secrets.kind });
  return {
    'settings:set-api-key': ({ apiKey }) => {
      ctx.secrets.set(API_KEY, apiKey.trim() || undefined);
      return status();
    },
    'settings:api-key-status': () => status(),
    'settings:get': () => ctx.settings.get(),
    'settings:set': (patch) => {
      try {
        return ctx.settings.set(patch);
      } catch (e) {
        throw stateFailure(e, 'the settings were not saved (they are as they were)');
      }
    },
  };
}
