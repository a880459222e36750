import { readFileSync, statSync } from 'node:fs';

/** Past this, a file beside a session is not one of the small files a tool keeps there (an index, a marker). */
const ASIDE_BYTES = 4 * 1024 * 1024;
/** Files kept read, by path: a folder of a thousand sessions asks for the same index a thousand times. */
const KEPT = 32;
const kept = new Map<string, { size: number; mtimeMs: number; text: string }>();

/**
 * The text of a small file a tool keeps beside its sessions (Gemini CLI's `.project_root`, Continue's
 * `sessions.json`), read again only when it changed; undefined where there is none, or it is no small file.
 */
export function readAside(path: string): string | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > ASIDE_BYTES) return undefined;
    const known = kept.get(path);
    if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) return known.text;
    const text = readFileSync(path, 'utf8');
    kept.delete(path);
    kept.set(path, { size: st.size, mtimeMs: st.mtimeMs, text });
    if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
    return text;
  } catch {
    return undefined;
  }
}
