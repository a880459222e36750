/** A Mac shows ⌘ where other systems show Ctrl (the keys themselves take either). */
export function onMac(): boolean {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  return !!nav && /Mac|iPhone|iPad/.test(nav.platform || nav.userAgent);
}

/** A key with Ctrl (⌘ on a Mac), as this platform writes it: "Ctrl+Enter", "⌘↩". */
export function withMod(key: 'Enter' | 'S' | 'Z'): string {
  return onMac() ? `⌘${key === 'Enter' ? '↩' : key}` : `Ctrl+${key}`;
}
