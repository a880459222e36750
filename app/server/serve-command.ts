import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { privateStateDir } from '../../src/core/storage/private-dir.js';
import { packageRoot } from '../service/package-root.js';
import type { ExtraCommand } from '../../src/cli/main.js';
import { InputError, UsageError } from '../../src/cli/usage.js';
import { exitWithFromEnv, whenProcessEnds } from './parent-watch.js';

/** `serve [DIR] [--port N]`: browser mode on 127.0.0.1 until interrupted. */
export async function serveCommand(dir: string, port: string | undefined): Promise<void> {
  const portNumber = port === undefined ? 0 : Number(port);
  if (!Number.isInteger(portNumber) || portNumber < 0 || portNumber > 65535) throw new UsageError(`--port takes a port number, not "${port}"`);
  const root = resolve(dir);
  if (!existsSync(root)) throw new InputError(`${dir}: no such directory`);
  const staticDir = join(packageRoot(), 'dist', 'renderer');
  if (!existsSync(join(staticDir, 'index.html'))) throw new InputError(`the app is not built (${staticDir} is missing): run npm run build`);
  // Loaded here, not with the bin: `show` and the other commands never load the server, its watcher or zod.
  const { startBackend } = await import('../service/backend/backend.js');
  const { startServer } = await import('./server.js');
  const { FolderShell } = await import('../service/folders/folder-shell.js');
  const { RecentFolders } = await import('../service/folders/recent-folders.js');
  // The document service runs on its own thread; this one only serves the page and routes messages. Open
  // Folder may go anywhere under the home folder (and the folder served), where the user's own files are.
  // Looked at once, before anything is kept there: one that is not this user's alone is said and replaced.
  const state = privateStateDir();
  const shell = new FolderShell(root, {
    // Settings (the model, the screen's sizes) are kept between runs, as Electron keeps them in its data folder.
    start: (d) => startBackend({ dirs: [d], mode: 'browser', stateDir: state, settingsFile: join(state, 'settings.json'), usePolling: process.env.CI_WATCH_POLLING === '1' }),
    scope: [homedir(), root],
    recents: new RecentFolders(join(state, 'recent-folders.json')),
  });
  const server = await startServer({ request: (channel, input) => shell.request(channel, input), staticDir, port: portNumber || undefined });
  shell.onEvent = (event, payload) => server.broadcast(event, payload);
  process.stdout.write(`Serving ${root} at ${server.url}\nOpen that URL as printed (its token is this run's); Ctrl+C stops the inspector.\n`);
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const starter = exitWithFromEnv();
    if (starter !== undefined) whenProcessEnds(starter, stop);
  });
  await server.close();
  await shell.close();
}

/** Browser mode's entry on the command line: the bin adds it to the engine's commands. */
export const SERVE_COMMAND: ExtraCommand = {
  usage: '  serve [DIR] [--port N]               the inspector in a browser: prints "Serving DIR at URL" (127.0.0.1 only)',
  run(rest, { port }) {
    if (rest.length > 1) throw new UsageError('serve takes at most one DIR');
    return serveCommand(rest[0] ?? (existsSync('conversations') ? 'conversations' : '.'), port);
  },
};
