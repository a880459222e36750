import { gzipContainer, zstdContainer } from './compressed.js';
import { registerContainer } from './container.js';
import { codexStateContainer } from './codex-state.js';
import { crushDbContainer } from './crush.js';
import { cursorDbContainer } from './cursor.js';
import { inspectEvalContainer } from './inspect-eval.js';
import { openCodeDbContainer, openCodeStorageContainer } from './opencode.js';
import { vscodeChatLogContainer } from './vscode-chat-log.js';

export { containerOf, listContainers, listedByNameExtensions, type Container, type ContainerContent } from './container.js';
export { isOpenCodeStoragePiece } from './listed-names.js';
import { loadSqlite } from './sqlite.js';

/**
 * Resolves once every reader can read (SQLite's loads its WebAssembly): awaited once by what reads files.
 * `paths`: only these will be read; SQLite is loaded only when one of them may be a database (a folder may hold one).
 */
export function formatsReady(paths?: readonly string[]): Promise<void> {
  if (paths && !paths.some((p) => !/\.[^/\\.]+$/.test(p) || /\.(db|vscdb|sqlite)$/i.test(p))) return Promise.resolve();
  return loadSqlite();
}

for (const c of [zstdContainer, gzipContainer, inspectEvalContainer, openCodeDbContainer, crushDbContainer, codexStateContainer, cursorDbContainer, openCodeStorageContainer, vscodeChatLogContainer]) registerContainer(c);
