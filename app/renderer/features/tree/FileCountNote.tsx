import type { Skeleton } from '../../../shared/contract.js';
import { useApp } from '../../store/index.js';
import { formatNumber } from '../roles.js';

/**
 * Beside a thread's count in the header, the file's, which the sidebar shows: a session's thread since its last
 * compaction holds fewer messages than the file (its history before, its sub-agents, other branches), and two
 * numbers that differ without a word read as a mistake.
 */
export function FileCountNote({ skeleton }: { skeleton: Skeleton }) {
  const inFile = useApp((s) => {
    const e = s.entries.find((x) => x.path === skeleton.path);
    return e && !e.estimated && !e.pending ? e.messages : undefined;
  });
  // Shown as a path of a tree (a thread, a branch, since a compaction): a flat file's rows are its messages.
  const path = skeleton.threads !== undefined || skeleton.forks !== undefined || skeleton.whole !== undefined || skeleton.earlier !== undefined;
  if (!path || inFile === undefined || inFile === skeleton.count) return null;
  return (
    <span data-testid="file-count-note" title={`The file holds ${formatNumber(inFile)} messages: every thread, the history before each compaction and the branches not shown. The sidebar counts them all; the table shows this thread.`}>
      {` (of the file's ${formatNumber(inFile)})`}
    </span>
  );
}
