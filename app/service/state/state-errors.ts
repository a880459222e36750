import { PrivateDirError } from '../../../src/core/storage/private-dir.js';
import { HandlerError } from '../../shared/errors.js';

/**
 * Why the app's own state folder (settings, local history, dismissed findings) refused a read or a write, in
 * words, never with its path: where this user keeps private state is nobody else's business, and an error
 * answer travels to the page and into reports.
 */
export function stateReason(e: unknown): string {
  if (e instanceof PrivateDirError) return e.why;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'a folder is where its file should be';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file is where its folder should be';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOENT':
      return 'its folder no longer exists';
    case undefined:
      return 'it could not be written';
    default:
      return `the system said ${code}`;
  }
}

/** A failure of the state folder as an answer: IO, what was not done and why (stateReason); a HandlerError as it is. */
export function stateFailure(e: unknown, what: string): HandlerError {
  if (e instanceof HandlerError) return e;
  return new HandlerError('IO', `${what}: ${stateReason(e)} in the app's private state folder`);
}
