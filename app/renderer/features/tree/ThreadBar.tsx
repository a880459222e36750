import type { Skeleton } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useAppPick } from '../../store/index.js';
import { formatBytes, formatNumber } from '../roles.js';

/** ‹ 2/3 › beside a row whose parent has other children: another branch of the file, a click away. */
export function ForkSwitch({ skeleton, index }: { skeleton: Skeleton; index: number }) {
  const { applyChange, select } = useAppPick('applyChange', 'select');
  const fork = skeleton.forks?.find((f) => f.at === index);
  if (!fork) return null;
  const go = async (option: number, e: React.MouseEvent) => {
    e.stopPropagation();
    const { delta } = await request('conversation:path', { path: skeleton.path, conversation: skeleton.conversation, at: index, option });
    await applyChange(delta);
    select(index);
  };
  return (
    // The grid takes Enter and Space for its rows: on an arrow they are the arrow's.
    <span className="fork-switch" data-testid="fork-switch" data-at={index} onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && e.stopPropagation()}>
      <button aria-label={fork.chosen === 0 ? `Previous branch (this is the first of ${fork.options})` : `Previous branch: ${optionName(fork, fork.chosen - 1)}`} title={fork.chosen === 0 ? undefined : `Show ${optionName(fork, fork.chosen - 1)}`} disabled={fork.chosen === 0} onClick={(e) => void go(fork.chosen - 1, e)} data-testid="fork-prev">
        ‹
      </button>
      <span title={`The file holds ${fork.options} paths from here; this is ${optionName(fork, fork.chosen)}${fork.chosen === fork.options - 1 ? ', the latest written' : ''}${fork.continued === undefined ? '' : fork.continued === fork.chosen ? '; the session went on with it' : `; the session went on with ${optionName(fork, fork.continued)}`}`}>
        {fork.chosen + 1}/{fork.options}
      </span>
      <button aria-label={fork.chosen === fork.options - 1 ? `Next branch (this is the last of ${fork.options})` : `Next branch: ${optionName(fork, fork.chosen + 1)}`} title={fork.chosen === fork.options - 1 ? undefined : `Show ${optionName(fork, fork.chosen + 1)}`} disabled={fork.chosen === fork.options - 1} onClick={(e) => void go(fork.chosen + 1, e)} data-testid="fork-next">
        ›
      </button>
    </span>
  );
}

/** "branch 2 of 3", with what the file calls it ("rank 0, the labellers' best") where it does. */
function optionName(fork: NonNullable<Skeleton['forks']>[number], option: number): string {
  const label = fork.labels?.[option];
  const rank = label ? /^rank (\d+)$/.exec(label) : null;
  // The file's own number (0 = best), as the rank column shows it, so the two never disagree.
  const said = rank ? `, rank ${rank[1]}${rank[1] === '0' ? " (the labellers' best)" : ''}` : label ? `, ${label}` : '';
  return `branch ${option + 1} of ${fork.options}${said}`;
}

/** ↳ beside a Task call's row: the sub-agent thread it ran, with its size, a click away. */
export function TaskThreadLink({ skeleton, index }: { skeleton: Skeleton; index: number }) {
  const { openConversation, counts, links } = useAppPick('openConversation', 'counts', 'links');
  const totals = counts?.path === skeleton.path ? counts.threadTotals : undefined;
  const main = skeleton.threads?.find((t) => t.conversation === skeleton.conversation)?.thread === 'main';
  const runs = (main ? skeleton.threads?.filter((t) => t.task === index) : undefined) ?? [];
  // Claude Code 2.1 and later: the sub-agent's own file beside the session.
  const files = links?.path === skeleton.path ? links.subagents.filter((a) => a.task === index) : [];
  if (runs.length === 0 && files.length === 0) return null;
  return (
    <>
      {files.map((a) => (
        <button
          key={a.path}
          className="link task-thread"
          title={`${a.title ?? a.agentId}: open the sub-agent's own file (${a.path}, ${formatBytes(a.bytes)})`}
          onClick={(e) => {
            e.stopPropagation();
            void openConversation(a.path, 0);
          }}
          data-testid="task-file"
        >
          ↳ sub-agent file · {formatBytes(a.bytes)}
        </button>
      ))}
      {runs.map((t) => (
        <button
          key={t.thread}
          className="link task-thread"
          title={`${t.title}: open the sub-agent's own thread (${t.messages} messages${totals?.[t.conversation] !== undefined ? `, ${formatNumber(totals[t.conversation])} tokens` : ''})`}
          onClick={(e) => {
            e.stopPropagation();
            void openConversation(skeleton.path, t.conversation);
          }}
          data-testid="task-thread"
        >
          ↳ {formatNumber(t.messages)} msg{totals?.[t.conversation] !== undefined ? ` · ${formatNumber(totals[t.conversation])} tok` : ''}
        </button>
      ))}
    </>
  );
}
