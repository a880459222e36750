import type { Handlers } from '../dispatch.js';
import type { HandlerContext } from './context.js';

export function settingsHandlers(ctx: HandlerContext): Pick<Handlers, 'settings:get' | 'settings:set'> {
  return {
    'settings:get': () => ctx.settings.get(),
    'settings:set': (patch) => ctx.settings.set(patch),
  };
}
