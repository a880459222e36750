import type { Row, Skeleton, SkeletonDelta, TokenCounts } from '../../shared/contract.js';
import { applySkeletonDelta, spliced } from '../../shared/skeleton-delta.js';

/** What the renderer holds of an open conversation: its skeleton, the table rows fetched so far, its counts. */
export interface ConversationData {
  skeleton: Skeleton;
  pages: ReadonlyMap<number, Row[]>;
  counts: TokenCounts | undefined;
}

/**
 * The conversation after a change main sent as a delta: the same skeleton, rows and counts a fresh open and a
 * full count would give (rows of a page not complete afterwards are dropped, and fetched again when shown;
 * counts main did not send leave `counts` undefined, to count again). Pure.
 */
export function applyDelta(data: ConversationData, delta: SkeletonDelta, pageSize: number): ConversationData {
  const { start, deleteCount } = delta;
  const insertCount = delta.rows.length;
  const shift = insertCount - deleteCount;
  const skeleton = applySkeletonDelta(data.skeleton, delta);
  const unchanged = insertCount === 0 && deleteCount === 0;

  const byIndex = new Map<number, Row>();
  for (const rows of data.pages.values()) {
    for (const r of rows) {
      if (r.index < start) byIndex.set(r.index, r);
      else if (r.index >= start + deleteCount) byIndex.set(r.index + shift, shift === 0 ? r : { ...r, index: r.index + shift });
    }
  }
  for (const r of delta.previews ?? []) byIndex.set(r.index, r);
  const pages = new Map<number, Row[]>();
  const candidates = new Set([...byIndex.keys()].map((i) => Math.floor(i / pageSize)));
  for (const page of candidates) {
    const rows: Row[] = [];
    const end = Math.min(skeleton.count, (page + 1) * pageSize);
    for (let i = page * pageSize; i < end; i++) {
      const r = byIndex.get(i);
      if (!r) break;
      rows.push(r);
    }
    if (rows.length > 0 && rows.length === end - page * pageSize) pages.set(page, rows);
  }

  let counts: TokenCounts | undefined;
  if (data.counts && unchanged) counts = data.counts;
  else if (data.counts && delta.counts && delta.counts.model === data.counts.model) {
    const c = data.counts;
    const d = delta.counts;
    const tokens = spliced(c.tokens, start, deleteCount, d.tokens);
    counts = {
      ...c,
      path: skeleton.path,
      encoding: d.encoding,
      approximate: d.approximate,
      tokens,
      toolTokens: spliced(c.toolTokens, start, deleteCount, d.toolTokens),
      reasoningTokens: spliced(c.reasoningTokens, start, deleteCount, d.reasoningTokens),
      renderedTokens: spliced(c.renderedTokens, start, deleteCount, d.renderedTokens),
      total: tokens.reduce((a, b) => a + b, 0),
    };
  }
  // The file's figure of a session is as fresh as the delta that brings it; without one it is not known.
  if (counts && counts.fileTotal !== delta.fileTotal) {
    const { fileTotal: _stale, ...rest } = counts;
    counts = delta.fileTotal !== undefined ? { ...rest, fileTotal: delta.fileTotal } : rest;
  }
  // So are its threads' figures.
  if (counts && JSON.stringify(counts.threadTotals) !== JSON.stringify(delta.threadTotals)) {
    const { threadTotals: _stale, ...rest } = counts;
    counts = delta.threadTotals !== undefined ? { ...rest, threadTotals: delta.threadTotals } : rest;
  }
  return { skeleton, pages, counts };
}

/** Where a selected message is after the splice (the same message, or the row now in its place). */
export function movedIndex(index: number | undefined, delta: SkeletonDelta): number | undefined {
  if (index === undefined) return undefined;
  const shift = delta.rows.length - delta.deleteCount;
  const at = index >= delta.start + delta.deleteCount ? index + shift : index;
  return delta.file.count === 0 ? undefined : Math.min(at, delta.file.count - 1);
}
