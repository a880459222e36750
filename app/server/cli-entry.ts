// The bin: the engine's commands plus browser mode's `serve`, which belongs to the app, not to src/.
import { main } from '../../src/cli/main.js';
import { SERVE_COMMAND } from './serve-command.js';

process.exitCode = await main(process.argv.slice(2), { serve: SERVE_COMMAND });
