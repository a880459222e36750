// The bin: the engine's commands plus browser mode's `serve`, which belongs to the app, not to src/.
import { main } from '../../src/cli/main.js';
import { SERVE_COMMAND } from './serve-command.js';

const code = await main(process.argv.slice(2), { serve: SERVE_COMMAND });
// Out once everything written has been handed on: left to end by itself, the process spent 15–30 ms more taking
// down what a command opened (the catalog's database, its threads) after its last line.
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((done) => (stream.writableLength === 0 ? done() : stream.write('', () => done())));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
