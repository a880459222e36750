// `npm start [-- DIR]`: until the desktop app lands, shows the conversations in DIR with the CLI
// (default: ./conversations when it exists, else the bundled examples/).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = process.argv[2] ?? (existsSync('conversations') ? 'conversations' : `${root}examples`);
const bin = `${root}bin/conversation-inspector.mjs`;
console.log(`Conversation Inspector: listing ${dir} (the desktop app is not built yet; this is the command-line view)\n`);
const r = spawnSync(process.execPath, [bin, 'ls', dir], { stdio: 'inherit' });
process.exit(r.status ?? 1);
