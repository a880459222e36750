// `npm start [-- DIR]`: builds when needed, then opens the inspector on DIR (default: ./conversations when it
// exists, else the bundled examples/). Electron where its binary exists; otherwise browser mode, with the URL.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = process.argv[2] ?? (existsSync('conversations') ? 'conversations' : join(root, 'examples'));

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
}
const built = join(root, 'dist', 'renderer', 'index.html');
const stale = !existsSync(built) || !existsSync(join(root, 'dist', 'main', 'index.mjs')) || Math.max(newest(join(root, 'app')), newest(join(root, 'src'))) > statSync(built).mtimeMs;
if (stale) {
  console.log('Building the app…');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

let electron = process.env.ELECTRON_PATH ?? join(root, 'node_modules', 'electron', 'dist', 'electron');
// A fetch that failed is not tried again on every start (a machine that cannot download stays one), for a day.
const failedMark = join(root, 'node_modules', '.electron-fetch-failed');
const failedLately = existsSync(failedMark) && Date.now() - statSync(failedMark).mtimeMs < 24 * 3600 * 1000;
if (!existsSync(electron) && !process.env.ELECTRON_PATH && !process.env.ELECTRON_SKIP_BINARY_DOWNLOAD && !failedLately) {
  // Installs skip dependency scripts (.npmrc), so the Electron binary is fetched here, once, where that is possible.
  const installer = join(root, 'node_modules', 'electron', 'install.js');
  if (existsSync(installer)) {
    console.log('Fetching the Electron binary…');
    spawnSync(process.execPath, [installer], { stdio: 'ignore', cwd: join(root, 'node_modules', 'electron'), timeout: 120_000 });
    if (!existsSync(electron)) writeFileSync(failedMark, `${new Date().toISOString()}\n`);
  }
}
/**
 * The app ends with what started it: signals are passed on, and when the process that ran this script is gone
 * (npm's shell dies of a SIGTERM without passing it on) the app is stopped too. The browser-mode server also
 * watches this script itself, in case it is killed outright.
 */
function endWithParent(child) {
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
  const parent = process.ppid;
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch (e) {
      if (e.code !== 'EPERM') child.kill('SIGTERM');
    }
  }, 1000).unref();
}

if (existsSync(electron)) {
  endWithParent(spawn(electron, [join(root, 'dist', 'main', 'index.mjs'), dir], { stdio: 'inherit', env: { ...process.env, INSPECTOR_DIR: dir } }));
} else {
  console.log(`No Electron binary on this machine (${existsSync(failedMark) ? 'fetching it failed; ' : ''}set ELECTRON_PATH to use one), so the inspector opens in browser mode: open the URL below.`);
  endWithParent(spawn(process.execPath, [join(root, 'bin', 'conversation-inspector.mjs'), 'serve', dir], { stdio: 'inherit', env: { ...process.env, INSPECTOR_EXIT_WITH: String(process.pid) } }));
}
