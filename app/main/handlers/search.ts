import type { Handlers } from '../dispatch.js';
import { HandlerError } from '../../shared/errors.js';
import { SearchInputError } from '../search/search-service.js';
import type { HandlerContext } from './context.js';

/** Search across every conversation of the opened folders (the index starts with the first search). */
export function searchHandlers(ctx: HandlerContext): Pick<Handlers, 'search:query'> {
  ctx.search.onProgress = (status) => ctx.emit('search:progress', status);
  return {
    'search:query': async (input) => {
      try {
        return await ctx.search.query(input);
      } catch (e) {
        if (e instanceof SearchInputError) throw new HandlerError('BAD_INPUT', e.message);
        throw e;
      }
    },
  };
}
