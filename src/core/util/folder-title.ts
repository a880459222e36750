/** A title that is a folder's path (Codex names a session by where it ran): it says where, not what. */
export const isFolderTitle = (title: string): boolean => /^([/~]|[A-Za-z]:[\\/])/.test(title);

/**
 * A title that says where or when, not what: a folder's path, or when the session started (Aider's
 * `aider chat started at 2025-03-14 09:12:07`). The session list titles such a session by its first prompt.
 */
export const saysOnlyWhereOrWhen = (title: string): boolean => isFolderTitle(title) || /^[\w ]*\bstarted at \d{4}-\d\d-\d\d[ T][\d:.]+$/i.test(title);
