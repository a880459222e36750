import { nameOf } from '../../util/file-name.js';

// What a listing asks of every file it walks, apart from the containers that read the files: the databases it
// shows by the name their app gives them, and the pieces of OpenCode's storage it does not show. A walk (and a
// CLI search from an up-to-date catalog) loads none of the readers of databases, archives or compressed files.

/** Each database a listing shows by its app's name for it, by its container's id (the container's `listed`). */
export const LISTED_BY_NAME: Readonly<Record<string, { extensions: readonly string[]; listed: (file: string) => boolean }>> = {
  // Codex's state database (`~/.codex/state_5.sqlite`; the number is its schema's generation).
  'codex-state-db': { extensions: ['.sqlite'], listed: (file) => /^state_\d+\.sqlite$/i.test(nameOf(file)) },
  'crush-db': { extensions: ['.db'], listed: (file) => /^crush\.db$/i.test(nameOf(file)) },
  'cursor-vscdb': { extensions: ['.vscdb'], listed: (file) => /^state\.vscdb$/i.test(nameOf(file)) && /cursor/i.test(file) },
  'opencode-db': { extensions: ['.db'], listed: (file) => /^opencode(-[\w.-]+)?\.db$/i.test(nameOf(file)) },
};

/** A file of OpenCode's storage folder that is a piece of a session, not one (a message, a part, a project, a diff). */
export function isOpenCodeStoragePiece(file: string): boolean {
  return /[\\/]storage[\\/](message|part|project|todo|session_diff|session_share|snapshot)[\\/]/.test(file) || /[\\/]storage[\\/]session[\\/](message|part)[\\/]/.test(file);
}
