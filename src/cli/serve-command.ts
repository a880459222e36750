import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startBackend } from '../../app/main/backend/backend.js';
import { packageRoot } from '../../app/server/runtime.js';
import { startServer } from '../../app/server/server.js';
import { InputError, UsageError } from './usage.js';

/** `serve [DIR] [--port N]`: browser mode on 127.0.0.1 until interrupted. */
export async function serveCommand(dir: string, port: string | undefined): Promise<void> {
  const portNumber = port === undefined ? 0 : Number(port);
  if (!Number.isInteger(portNumber) || portNumber < 0 || portNumber > 65535) throw new UsageError(`--port takes a port number, not "${port}"`);
  const root = resolve(dir);
  if (!existsSync(root)) throw new InputError(`${dir}: no such directory`);
  const staticDir = join(packageRoot(), 'dist', 'renderer');
  if (!existsSync(join(staticDir, 'index.html'))) throw new InputError(`the app is not built (${staticDir} is missing): run npm run build`);
  // The document service runs on its own thread; this one only serves the page and routes messages.
  const backend = startBackend({ dirs: [root], mode: 'browser', usePolling: process.env.CI_WATCH_POLLING === '1' });
  const server = await startServer({ request: (channel, input) => backend.request(channel, input), staticDir, port: portNumber || undefined });
  backend.onEvent = (event, payload) => server.broadcast(event, payload);
  process.stdout.write(`Serving ${root} at ${server.url}\n`);
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  await backend.close();
}
