import { gzipContainer, zstdContainer } from './compressed.js';
import { registerContainer } from './container.js';
import { cursorDbContainer } from './cursor.js';
import { inspectEvalContainer } from './inspect-eval.js';
import { openCodeDbContainer, openCodeStorageContainer } from './opencode.js';
import { vscodeChatLogContainer } from './vscode-chat-log.js';

export { containerOf, listContainers, type Container, type ContainerContent } from './container.js';
export { isOpenCodeStoragePiece } from './opencode.js';

for (const c of [zstdContainer, gzipContainer, inspectEvalContainer, openCodeDbContainer, cursorDbContainer, openCodeStorageContainer, vscodeChatLogContainer]) registerContainer(c);
