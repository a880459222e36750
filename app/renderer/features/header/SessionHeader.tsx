import type { Skeleton } from '../../../shared/contract.js';
import { useApp } from '../../store/index.js';
import { formatBytes, formatNumber } from '../roles.js';
import { FileCountNote } from '../tree/FileCountNote.js';
import { CountedTotal } from './CountedTotal.js';
import { Sep } from './Sep.js';
import { HeaderNotes } from './HeaderNotes.js';
import { splitPath } from './names.js';
import { sessionOf } from './session-count.js';
import { saysOnlyWhereOrWhen } from '../../../../src/core/util/folder-title.js';

/**
 * The first line of a conversation's header: what it is and its figures, on one line whatever the width (cut
 * at its end, whole on hover), and the notes folded into one button at its end.
 */
export function SessionHeader({ skeleton, provisional }: { skeleton: Skeleton; provisional?: { estimated?: number; ends?: unknown } }) {
  const parted = useApp((s) => s.entries.some((e) => e.parts?.some((p) => p.path === skeleton.path)));
  const { dir, base } = splitPath(skeleton.path);
  // Which conversation of the file this is: its thread, its place in a dataset, its title.
  // A session the file gives no title: as the session list titles it (its first prompt, the name its tool gave it).
  const listed = useApp((s) => s.sessionsAnswer?.sessions.find((x) => x.path === skeleton.path && x.conversation === skeleton.conversation)?.title);
  // A title that is a folder (Codex names a session by where it ran) or when it started (Aider's) says where or
  // when, not what: the list's title instead.
  const own = skeleton.title !== undefined && saysOnlyWhereOrWhen(skeleton.title) && listed ? listed : skeleton.title;
  const thread = skeleton.threads?.find((t) => t.conversation === skeleton.conversation);
  // The main thread of a session whose sub-agents ran in its file is the session: its title (the thread menu beside
  // it says which thread); a sub-agent's thread, its own.
  const which = (skeleton.threads ? (thread?.thread === 'main' ? (own ?? listed ?? thread.title) : (thread?.title ?? 'thread')) : skeleton.conversations > 1 ? `conversation #${skeleton.conversation} (${formatNumber(skeleton.conversations)} in the file)${own ? ` · ${own}` : ''}` : own) ?? listed;
  const streaming = !!provisional && !provisional.ends;
  const count = streaming ? `first ${formatNumber(skeleton.count)}${provisional.estimated ? ` of ≈${formatNumber(provisional.estimated)}` : ''}` : formatNumber(skeleton.count);
  const of = streaming ? undefined : sessionOf(skeleton);
  return (
    // A session with a title leads with it: its file's name (often a uuid) gives it the room.
    <div className={`conv-head${which ? ' titled' : ''}`} data-testid="session-header">
      {/* The folders give way first; the file's own name is cut at its end, so the start of a uuid stays. */}
      <h1 data-testid="conv-title" title={skeleton.path}>
        {dir && <span className="conv-dir">{dir}</span>}
        <span className="conv-base">{base}</span>
      </h1>
      {/* Each figure is shown whole or not at all (one that does not fit goes to a line the header hides): a
          number cut in its middle ("246,6…") reads as another number. What the session is comes first. */}
      <span className="conv-figures muted" data-testid="conv-figures">
        {/* The session and how much of it is shown hold together; its title is what gives way. */}
        <span className="conv-lead">
          {which ? (
            <span className="conv-which" title={which}>
              {which}
            </span>
          ) : null}
          {/* Part of the session shown: of how many it has, as the session list counts them; what the rest is, on hover. */}
          <span className="fig">
            {which ? <Sep /> : null}
            {of ? (
              <span data-testid="conv-count" title={of.says}>
                {count} of {formatNumber(of.messages)} msgs
              </span>
            ) : (
              <span data-testid="conv-count">{count} msgs</span>
            )}
          </span>
        </span>
        <CountedTotal skeleton={skeleton} after={<FileCountNote skeleton={skeleton} />} />
        <span className="fig" title={skeleton.format}>
          <Sep />
          {skeleton.formatLabel}
        </span>
        <span className="fig">
          <Sep />
          {formatBytes(skeleton.bytes)}
        </span>
      </span>
      <HeaderNotes skeleton={skeleton} parted={parted} />
    </div>
  );
}
