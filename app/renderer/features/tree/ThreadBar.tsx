import { useState } from 'react';
import type { Skeleton } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useAppPick } from '../../store/index.js';
import { formatNumber } from '../roles.js';

/**
 * For a session whose messages make a tree: which thread is shown (the main one, a sub-agent's), whether it
 * is what the model is sent now (since the last compaction) or the whole session, and where its path forks.
 */
export function ThreadBar({ skeleton }: { skeleton: Skeleton }) {
  const { openConversation, applyChange } = useAppPick('openConversation', 'applyChange');
  const [error, setError] = useState<string | undefined>();
  if (!skeleton.threads && !skeleton.forks && !skeleton.earlier && !skeleton.whole) return null;
  const setWhole = async (whole: boolean) => {
    try {
      const { delta } = await request('conversation:path', { path: skeleton.path, conversation: skeleton.conversation, whole });
      await applyChange(delta);
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div className="thread-bar" data-testid="thread-bar">
      {skeleton.threads && (
        <span className="filters" role="group" aria-label="Threads of this session">
          {skeleton.threads.map((t) => (
            <button
              key={t.thread}
              className={`chip-toggle ${t.conversation === skeleton.conversation ? 'on' : ''}`}
              aria-pressed={t.conversation === skeleton.conversation}
              title={t.thread === 'main' ? t.title : `${t.title} (${t.thread.replace(/^side:/, 'id ')})`}
              onClick={() => t.conversation !== skeleton.conversation && void openConversation(skeleton.path, t.conversation)}
              data-testid="thread"
              data-thread={t.thread}
            >
              <span className="thread-name">{t.thread === 'main' ? 'Main thread' : `↳ ${t.title.replace(/^Sub-agent\s*/, 'sub-agent ')}`}</span>
              <span className="muted">{formatNumber(t.messages)}</span>
            </button>
          ))}
        </span>
      )}
      {(skeleton.earlier ?? 0) > 0 || skeleton.whole ? (
        <span className="muted" data-testid="compaction-note">
          {skeleton.whole ? (
            <>
              The whole session, compactions and all ·{' '}
              <button className="link" onClick={() => void setWhole(false)} data-testid="show-since-compaction">
                show what the model is sent now
              </button>
            </>
          ) : (
            <>
              Since the last compaction: what the model is sent now ·{' '}
              <button className="link" onClick={() => void setWhole(true)} data-testid="show-whole">
                show the {formatNumber(skeleton.earlier ?? 0)} messages before it too
              </button>
            </>
          )}
        </span>
      ) : null}
      {skeleton.forks && (
        <span className="muted" data-testid="fork-note" title="A rewind or a regenerated answer: the file holds another path here. The ‹ › beside a row's number switch to it.">
          {skeleton.forks.length === 1 ? 'One place where' : `${formatNumber(skeleton.forks.length)} places where`} this path could have gone otherwise (‹ › beside{' '}
          {skeleton.forks.map((f) => `#${f.at}`).join(', ')})
        </span>
      )}
      {error && <span className="error-text">{error}</span>}
    </div>
  );
}

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
    <span className="fork-switch" data-testid="fork-switch" data-at={index}>
      <button aria-label={fork.chosen === 0 ? `Previous branch (this is the first of ${fork.options})` : `Previous branch: ${optionName(fork, fork.chosen - 1)}`} title={fork.chosen === 0 ? undefined : `Show ${optionName(fork, fork.chosen - 1)}`} disabled={fork.chosen === 0} onClick={(e) => void go(fork.chosen - 1, e)} data-testid="fork-prev">
        ‹
      </button>
      <span title={`The file holds ${fork.options} paths from here; this is ${optionName(fork, fork.chosen)}${fork.chosen === fork.options - 1 ? ', the latest written' : ''}`}>
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
  const said = rank ? `, ranked ${Number(rank[1]) + 1}${rank[1] === '0' ? " (the labellers' best)" : ''}` : label ? `, ${label}` : '';
  return `branch ${option + 1} of ${fork.options}${said}`;
}

/** ↳ beside a Task call's row: the sub-agent thread it ran, with its size, a click away. */
export function TaskThreadLink({ skeleton, index }: { skeleton: Skeleton; index: number }) {
  const { openConversation, counts } = useAppPick('openConversation', 'counts');
  const totals = counts?.path === skeleton.path ? counts.threadTotals : undefined;
  const main = skeleton.threads?.find((t) => t.conversation === skeleton.conversation)?.thread === 'main';
  const runs = main ? skeleton.threads?.filter((t) => t.task === index) : undefined;
  if (!runs || runs.length === 0) return null;
  return (
    <>
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
