import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/**
 * A dependency loaded when it is first used, not when the engine is: `show` of a JSON file never pays for
 * the YAML library, nor a file that parses for the error-position parser.
 */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(id) as T);
}
