import type { Handlers } from '../dispatch.js';
import type { HandlerContext } from './context.js';

/** The session catalog: the sessions of the opened folders, and what they cost (it starts with the first ask). */
export function catalogHandlers(ctx: HandlerContext): Pick<Handlers, 'catalog:sessions' | 'catalog:usage'> {
  ctx.search.onCatalog = (status) => ctx.emit('catalog:progress', status);
  return {
    'catalog:sessions': (input) => ctx.search.sessions(input),
    'catalog:usage': (input) => ctx.search.usage(input.by),
  };
}
