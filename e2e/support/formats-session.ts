import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, ROOT, tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, type Mode, type Session } from './browsers.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');

/** What the real CLI prints with --json, run as a child process. */
export const cliJson = (...args: string[]) => JSON.parse(spawnSync(process.execPath, [BIN, ...args, '--json'], { encoding: 'utf8' }).stdout);

/** The inspector on a fresh copy of the formats fixtures, ready. */
export async function openOnFormats(mode: Mode): Promise<{ page: InspectorPage; dir: string; session: Session }> {
  const dir = tempDir();
  cpSync(join(FIXTURES, 'formats'), dir, { recursive: true });
  const session = await openInspector(mode, dir);
  const page = new InspectorPage(session.page);
  await page.ready();
  return { page, dir, session };
}
