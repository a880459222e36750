/**
 * A path as two parts, the folders and the file's own name: the folders give way first, and each is cut at its
 * end, so what tells two sessions apart (the start of a uuid, an agent id) is what stays.
 */
export function splitPath(path: string): { dir: string; base: string } {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? { dir: '', base: path } : { dir: path.slice(0, cut + 1), base: path.slice(cut + 1) };
}

/** A sub-agent's name for a menu: its title, or "sub-agent" and its id (cut at the end by the screen, never inside). */
export function threadName(t: { thread: string; title: string }): string {
  return t.thread === 'main' ? 'Main thread' : `↳ ${t.title.replace(/^Sub-agent\s*/, 'sub-agent ')}`;
}
