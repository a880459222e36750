import type { Skeleton } from '../../../shared/contract.js';
import { useAppPick } from '../../store/index.js';
import { formatBytes, formatNumber } from '../roles.js';
import { Popover } from './Popover.js';
import { threadName } from './names.js';

/**
 * Where else this session is: its threads (the main one, each sub-agent's), the sub-agents' own files, the
 * session a sub-agent file is of, the file it goes on from. One menu, whatever their number.
 */
export function ThreadMenu({ skeleton }: { skeleton: Skeleton }) {
  const { openConversation, links: allLinks, openParentSession } = useAppPick('openConversation', 'links', 'openParentSession');
  const links = allLinks?.path === skeleton.path ? allLinks : undefined;
  const threads = skeleton.threads ?? [];
  const files = links?.subagents ?? [];
  const current = threads.find((t) => t.conversation === skeleton.conversation);
  if (threads.length < 2 && files.length === 0 && !links?.parent && !links?.continues) return null;
  const others = Math.max(0, threads.length - 1) + files.length;
  const name = links?.parent ? 'Sub-agent file' : current ? threadName(current) : 'Main thread';
  const label = `${name}${others > 0 ? ` · ${formatNumber(others)} other${others === 1 ? '' : 's'}` : ''}`;
  return (
    <Popover
      label="Threads of this session"
      testid="thread-menu"
      title={`${current ? (current.thread === 'main' ? current.title : `${current.title} (${current.thread.replace(/^side:/, 'id ')})`) : name}: the threads and files of this session`}
      content={
        <>
          <span className="thread-name">{label}</span> ▾
        </>
      }
      buttonProps={{ 'data-thread': current?.thread }}
    >
      {(close) => (
        <div className="menu-list">
          {threads.length > 1 && (
            <div role="group" aria-label="Threads in this file">
              {threads.map((t) => (
                <button
                  key={t.thread}
                  className="menu-item"
                  aria-pressed={t.conversation === skeleton.conversation}
                  title={t.thread === 'main' ? t.title : `${t.title} (${t.thread.replace(/^side:/, 'id ')})`}
                  onClick={() => {
                    close();
                    if (t.conversation !== skeleton.conversation) void openConversation(skeleton.path, t.conversation);
                  }}
                  data-testid="thread"
                  data-thread={t.thread}
                >
                  <span className="thread-name">{threadName(t)}</span>
                  <span className="muted">{formatNumber(t.messages)} msgs</span>
                </button>
              ))}
            </div>
          )}
          {files.length > 0 && (
            <div role="group" aria-label="Sub-agents' own files" data-testid="subagent-files">
              <div className="menu-heading muted">Sub-agent files</div>
              {files.map((a, k) => (
                <button
                  key={a.path}
                  className="menu-item"
                  title={`${a.title ?? a.agentId}${a.agentType ? ` (${a.agentType})` : ''} · ${a.path}`}
                  onClick={() => {
                    close();
                    void openConversation(a.path, 0);
                  }}
                  data-testid="subagent-file"
                >
                  <span className="thread-name">
                    ↳ {k + 1}: {a.title ?? a.agentId}
                  </span>
                  <span className="muted">{formatBytes(a.bytes)}</span>
                </button>
              ))}
            </div>
          )}
          {links?.parent &&
            (links.parent.path ? (
              <button
                className="menu-item"
                onClick={() => {
                  close();
                  void openParentSession();
                }}
                data-testid="open-parent-session"
                title={`${threadOfWhat(links.parent.kind, links.parent.name)} of session ${links.parent.sessionId}`}
              >
                <span className="thread-name" data-testid="parent-session" data-kind={links.parent.kind}>
                  ↰ The session it ran in ({links.parent.sessionId.slice(0, 8)}…), at {skeleton.format === 'codex-rollout' ? 'the call that started it' : 'its Task call'}
                </span>
              </button>
            ) : (
              <span className="menu-item muted" data-testid="parent-session" data-kind={links.parent.kind}>
                {threadOfWhat(links.parent.kind, links.parent.name)} of session {links.parent.sessionId.slice(0, 8)}…, whose file is not in the opened folders
              </span>
            ))}
          {links?.continues && <Continues skeleton={skeleton} continues={links.continues} open={(p) => (close(), void openConversation(p, 0))} />}
        </div>
      )}
    </Popover>
  );
}

function Continues({ skeleton, continues, open }: { skeleton: Skeleton; continues: { path?: string; uuid: string }; open(path: string): void }) {
  if (continues.path)
    return (
      <button className="menu-item" onClick={() => open(continues.path!)} data-testid="open-earlier-file" title={continues.path}>
        <span className="thread-name" data-testid="continues-from">
          ↰ Goes on from {continues.path.replace(/^.*\//, '')}
        </span>
      </button>
    );
  // A part of a file read a part at a time begins mid-thread: what it goes on from is in the part before.
  const part = Number(/#part-(\d+)$/.exec(skeleton.path)?.[1] ?? 0) > 1;
  return (
    <p className="menu-note muted" data-testid="continues-from">
      Goes on from message {continues.uuid.slice(0, 8)}…, {part ? 'in the part before this one' : 'which is in none of the files beside it'}
    </p>
  );
}

/** "A sub-agent", "The compaction helper", "A review", "A spawned agent (Kepler)": what a thread's own file is of its session. */
function threadOfWhat(kind: string | undefined, name: string | undefined): string {
  const what = kind === undefined || kind === 'sub-agent' ? 'A sub-agent' : kind === 'compaction' ? 'The compaction helper' : kind === 'spawned' ? 'A spawned agent' : `A ${kind}`;
  return name ? `${what} (${name})` : what;
}
