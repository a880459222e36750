import type { DirEntry, Skeleton } from '../../../shared/contract.js';
import { useApp } from '../../store/index.js';
import { formatNumber } from '../roles.js';
import { sessionOf } from '../header/session-count.js';

/**
 * After a thread's counts in the header, those the sidebar shows for what holds it (the file, or its
 * conversation in a file of several): a session's thread since its last compaction holds fewer messages than
 * the file (its history before, its sub-agents, other branches), and figures that differ without a word read
 * as a mistake.
 */
export function FileCountNote({ skeleton }: { skeleton: Skeleton }) {
  // The entry itself is selected (a new object each time would render without end).
  const e = useApp((s) => s.entries.find((x) => x.path === skeleton.path));
  const whole = sidebarFigures(e, skeleton);
  // Shown as a path of a tree (a thread, a branch, since a compaction): a flat file's rows are its messages.
  const path = skeleton.threads !== undefined || skeleton.forks !== undefined || skeleton.whole !== undefined || skeleton.earlier !== undefined;
  if (!path || !whole || whole.messages === skeleton.count) return null;
  // The header says how many the session holds already ("19 of 581 msgs"): the note says no number twice.
  const said = whole.messages === sessionOf(skeleton)?.messages;
  if (said && whole.tokens === undefined) return null;
  const figures = said ? `${formatNumber(whole.tokens!)} tok` : `${formatNumber(whole.messages)} msgs${whole.tokens !== undefined ? ` · ${formatNumber(whole.tokens)} tok` : ''}`;
  return (
    <span data-testid="file-count-note" title={`${whole.of === 'the file' ? 'The file holds' : 'This conversation holds'} ${formatNumber(whole.messages)} messages: every thread, the history before each compaction and the branches not shown, as the sidebar counts them. The table shows the path above.`}>
      {` (${whole.of}: ${figures})`}
    </span>
  );
}

/** What the sidebar counts for the file, or for this conversation of a file of several (a ChatGPT export). */
function sidebarFigures(e: DirEntry | undefined, skeleton: Skeleton): { of: string; messages: number; tokens?: number } | undefined {
  if (!e || e.estimated || e.pending || e.messages === undefined) return undefined;
  const each = e.conversationMessages?.length === skeleton.conversations ? e.conversationMessages[skeleton.conversation] : undefined;
  if (each !== undefined) return { of: 'this conversation', messages: each, tokens: e.conversationTokens?.[skeleton.conversation] };
  return { of: 'the file', messages: e.messages, tokens: e.tokens };
}
