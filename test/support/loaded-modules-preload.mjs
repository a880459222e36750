// Preloaded (node --import) into a CLI run a test looks into: every module the process loads, ES module or
// required, goes to the file CI_LOADED_FILE names, a line each (an ES module's URL, `require:` and what a
// require asked for). Threads the process starts are not followed.
import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';

const file = process.env.CI_LOADED_FILE;
if (file) {
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(${JSON.stringify(file)}, found.url + '\\n');
  return found;
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  const load = Module._load;
  Module._load = function (request, ...rest) {
    appendFileSync(file, `require:${request}\n`);
    return load.call(this, request, ...rest);
  };
}
