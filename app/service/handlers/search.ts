import type { Handlers } from '../dispatch.js';
import { HandlerError } from '../../shared/errors.js';
import { SearchInputError } from '../search/search-service.js';
import type { HandlerContext } from './context.js';

/** Search across every conversation of the opened folders (the index starts with the first search). */
export function searchHandlers(ctx: HandlerContext): Pick<Handlers, 'search:query' | 'search:snippets'> {
  ctx.search.onProgress = (status) => ctx.emit('search:progress', status);
  const asked = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      if (e instanceof SearchInputError) throw new HandlerError('BAD_INPUT', e.message);
      throw e;
    }
  };
  return {
    'search:query': (input) => asked(() => ctx.search.query(input)),
    'search:snippets': (input) => asked(async () => ({ hits: await ctx.search.snippets(input) })),
  };
}
