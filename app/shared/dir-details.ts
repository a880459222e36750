import type { DirEntry } from './contract.js';

/** A newer listing of the same file (same size and mtime) keeps a token total and a scan's figures the older one had: they are only known once counted and scanned. */
function carryTokens(before: DirEntry | undefined, after: DirEntry): DirEntry {
  if (!before || before.bytes !== after.bytes || before.modified !== after.modified) return after;
  const tokens = after.tokens === undefined && before.tokens !== undefined ? { tokens: before.tokens } : {};
  const each = after.conversationTokens === undefined && before.conversationTokens !== undefined ? { conversationTokens: before.conversationTokens } : {};
  // What a scan found is known once scanned, as totals are once counted.
  const found = after.secrets === undefined && before.secrets !== undefined ? { secrets: before.secrets, personal: before.personal } : {};
  return Object.keys(tokens).length + Object.keys(each).length + Object.keys(found).length > 0 ? { ...after, ...tokens, ...each, ...found } : after;
}

/** The listed entries with newer details put in by path; entries no longer listed are not brought back. Pure. */
export function withDetails(entries: readonly DirEntry[], details: readonly DirEntry[]): DirEntry[] {
  const byPath = new Map(details.map((d) => [d.path, d]));
  return entries.map((e) => {
    const d = byPath.get(e.path);
    // A file that changed since it was read keeps its newer listing; its details come again.
    return d && d.bytes === e.bytes && d.modified === e.modified ? carryTokens(e, d) : e;
  });
}

/**
 * A file changed or replaced is listed before it is read again: until its details come it keeps the format
 * (the badge) and the title it had, as an agent rewriting a session does not change what the session is.
 */
function carryFormat(before: DirEntry | undefined, after: DirEntry): DirEntry {
  if (!before?.format || after.format !== undefined || !after.pending || before.error) return after;
  return { ...after, format: before.format, ...(before.formatLabel ? { formatLabel: before.formatLabel } : {}), ...(before.title && after.title === undefined ? { title: before.title } : {}) };
}

/** A fresh listing, keeping what the previous one knew of unchanged files that the fresh one does not (token totals), and the badge of files being read again. Pure. */
export function relisted(previous: readonly DirEntry[], fresh: readonly DirEntry[]): DirEntry[] {
  const byPath = new Map(previous.map((e) => [e.path, e]));
  return fresh.map((e) => carryFormat(byPath.get(e.path), carryTokens(byPath.get(e.path), e)));
}
