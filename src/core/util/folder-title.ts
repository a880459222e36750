/** A title that is a folder's path (Codex names a session by where it ran): it says where, not what. */
export const isFolderTitle = (title: string): boolean => /^([/~]|[A-Za-z]:[\\/])/.test(title);
