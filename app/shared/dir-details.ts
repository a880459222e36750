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

/** A fresh listing, keeping what the previous one knew of unchanged files that the fresh one does not (token totals). Pure. */
export function relisted(previous: readonly DirEntry[], fresh: readonly DirEntry[]): DirEntry[] {
  const byPath = new Map(previous.map((e) => [e.path, e]));
  return fresh.map((e) => carryTokens(byPath.get(e.path), e));
}
