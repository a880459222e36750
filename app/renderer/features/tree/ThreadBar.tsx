import { useState } from 'react';
import { FLAGS, type Skeleton } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useAppPick } from '../../store/index.js';
import { formatBytes, formatNumber } from '../roles.js';
import { BranchTree } from './BranchTree.js';
import { reattachedText } from '../../../../src/core/tree/thread-paths.js';

/**
 * For a session whose messages make a tree: which thread is shown (the main one, a sub-agent's), whether it
 * is what the model is sent now (since the last compaction) or the whole session, and where its path forks.
 */
export function ThreadBar({ skeleton }: { skeleton: Skeleton }) {
  const { openConversation, applyChange, links: allLinks, openParentSession } = useAppPick('openConversation', 'applyChange', 'links', 'openParentSession');
  const [error, setError] = useState<string | undefined>();
  const [tree, setTree] = useState(false);
  const links = allLinks?.path === skeleton.path ? allLinks : undefined;
  const linked = links && (links.parent || links.continues || links.subagents.length > 0);
  // A branch that never reached a compaction is whole already: nothing to say of what the model is sent now.
  const compacted = skeleton.flags.some((f) => (f & FLAGS.compaction) !== 0);
  if (!skeleton.threads && !skeleton.forks && !skeleton.forkCount && !skeleton.reattached && !skeleton.earlier && !skeleton.whole && !linked) return null;
  // Every place the thread forks (the CLI's and the branch tree's count), and those on the path shown.
  const forkCount = skeleton.forkCount ?? skeleton.forks?.length ?? 0;
  const onPath = skeleton.forks ?? [];
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
      {(skeleton.earlier ?? 0) > 0 || (skeleton.whole && compacted) ? (
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
      {forkCount > 0 && (
        <span className="muted" data-testid="fork-note" data-forks={forkCount} title="A rewind, an edited prompt or a regenerated answer: the file holds another path here. The ‹ › beside a row's number switch to it.">
          {onPath.length === forkCount ? (
            <>
              {forkCount === 1 ? 'One place where' : `${formatNumber(forkCount)} places where`} this path could have gone otherwise (‹ › beside {onPath.map((f) => `#${f.at}`).join(', ')})
            </>
          ) : (
            <>
              The thread forks in {forkCount === 1 ? 'one place' : `${formatNumber(forkCount)} places`}
              {onPath.length === 0 ? ', none on this path' : `, ${formatNumber(onPath.length)} on this path (‹ › beside ${onPath.map((f) => `#${f.at}`).join(', ')})`}
            </>
          )}{' '}
          ·{' '}
          <button className="link" onClick={() => setTree(true)} data-testid="show-branch-tree">
            every branch
          </button>
        </span>
      )}
      {(skeleton.reattached ?? 0) > 0 && (
        <span className="muted" data-testid="reattached-note" title="A copied or partial transcript: the line each of them names is not in this file.">
          {reattachedText(skeleton.reattached!)}
        </span>
      )}
      {tree && <BranchTree skeleton={skeleton} onClose={() => setTree(false)} />}
      {links?.parent && (
        <span className="muted" data-testid="parent-session" data-kind={links.parent.kind}>
          {threadOfWhat(links.parent.kind, links.parent.name)} of session {links.parent.sessionId.slice(0, 8)}
          {links.parent.path ? (
            <>
              {' '}
              ·{' '}
              <button className="link" onClick={() => void openParentSession()} data-testid="open-parent-session">
                open the session at {skeleton.format === 'codex-rollout' ? 'the call that started it' : 'its Task call'}
              </button>
            </>
          ) : (
            ', whose file is not in the opened folders'
          )}
        </span>
      )}
      {links && links.subagents.length > 0 && (
        <span className="filters" role="group" aria-label="Sub-agents' own files" data-testid="subagent-files">
          <span className="muted">{skeleton.format === 'codex-rollout' ? 'Its sub-agent rollouts:' : 'Sub-agent files:'}</span>
          {links.subagents.slice(0, 8).map((a, k) => (
            <button key={a.path} className="chip-toggle" title={`${a.title ?? a.agentId}${a.agentType ? ` (${a.agentType})` : ''} · ${a.path}`} onClick={() => void openConversation(a.path, 0)} data-testid="subagent-file">
              <span className="thread-name">↳ {k + 1}{a.title ? `: ${a.title}` : ''}</span>
              <span className="muted">{formatBytes(a.bytes)}</span>
            </button>
          ))}
          {links.subagents.length > 8 && <span className="muted">and {formatNumber(links.subagents.length - 8)} more in the folder {links.subagents[0].path.replace(/\/[^/]+$/, '')}</span>}
        </span>
      )}
      {links?.continues && (
        <span className="muted" data-testid="continues-from">
          {links.continues.path ? (
            <>
              Goes on from an earlier file ·{' '}
              <button className="link" onClick={() => void openConversation(links.continues!.path!, 0)} data-testid="open-earlier-file">
                open {links.continues.path.replace(/^.*\//, '')}
              </button>
            </>
          ) : Number(/#part-(\d+)$/.exec(skeleton.path)?.[1] ?? 0) > 1 ? (
            // A part of a file read a part at a time begins mid-thread: what it goes on from is in the part before.
            `Goes on from message ${links.continues.uuid.slice(0, 8)}…, in the part before this one`
          ) : (
            `Goes on from message ${links.continues.uuid.slice(0, 8)}…, which is in none of the files beside it`
          )}
        </span>
      )}
      {error && <span className="error-text">{error}</span>}
    </div>
  );
}


/** "A sub-agent", "The compaction helper", "A review", "A spawned agent (Kepler)": what a thread's own file is of its session. */
function threadOfWhat(kind: string | undefined, name: string | undefined): string {
  const what = kind === undefined || kind === 'sub-agent' ? 'A sub-agent' : kind === 'compaction' ? 'The compaction helper' : kind === 'spawned' ? 'A spawned agent' : `A ${kind}`;
  return name ? `${what} (${name})` : what;
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
