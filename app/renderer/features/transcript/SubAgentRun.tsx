import { useEffect, useMemo, useState } from 'react';
import { request } from '../../api/client.js';
import type { TranscriptMessage } from '../../store/transcript.js';
import { RoleChip } from '../RoleChip.js';
import { formatBytes, formatNumber } from '../roles.js';
import { useFolds } from './folds.js';
import { TranscriptParts } from './TranscriptParts.js';

/** Messages of a sub-agent shown in place at a time (more on asking). */
const SHOWN = 40;

export interface SubAgent {
  /** Where its messages are: a thread of the same file, or a file of its own. */
  path: string;
  conversation: number;
  title: string;
  messages?: number;
  tokens?: number;
  bytes?: number;
  /** Opens it as the conversation shown. */
  open(): void;
}

/**
 * The sub-agent a Task (or Agent) call ran, folded under the call: unfolded, its messages in place (fetched then),
 * a page at a time; its own thread a click away.
 */
export function SubAgentRun({ agent, foldKey, query }: { agent: SubAgent; foldKey: string; query: string }) {
  const folds = useFolds();
  const open = folds.isOpen(foldKey, false);
  const [shown, setShown] = useState(SHOWN);
  const [views, setViews] = useState<TranscriptMessage[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (!open) return;
    let live = true;
    request('conversation:views', { path: agent.path, conversation: agent.conversation, start: 0, count: Math.min(500, shown + 1) })
      .then(({ views: got }) => live && setViews(got))
      .catch((e) => live && setError((e as Error).message));
    return () => {
      live = false;
    };
  }, [open, agent.path, agent.conversation, shown]);
  // Calls and results inside it name each other by id.
  const names = useMemo(() => {
    const m = new Map<string, string>();
    for (const v of views ?? []) for (const p of v.parts) if (p.kind === 'tool-call' && p.id) m.set(p.id, p.name);
    return m;
  }, [views]);
  const figures = [agent.messages !== undefined ? `${formatNumber(agent.messages)} messages` : undefined, agent.tokens !== undefined ? `${formatNumber(agent.tokens)} tokens` : undefined, agent.bytes !== undefined ? formatBytes(agent.bytes) : undefined].filter(Boolean).join(' · ');
  return (
    <div className="tx-subagent" data-testid="tx-subagent">
      <div className="tx-card-head">
        <button className="tx-fold-head" aria-expanded={open} onClick={() => folds.toggle(foldKey, false)} data-testid="tx-subagent-fold" title={open ? 'Fold the sub-agent' : 'Show the sub-agent’s messages here'}>
          <span className="tx-caret" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <span aria-hidden="true">↳</span> <strong>Sub-agent</strong> <span className="tx-headline">{agent.title}</span>
          {figures && <span className="muted small"> · {figures}</span>}
        </button>
        <span className="spacer" />
        <button className="link small" onClick={() => agent.open()} data-testid="tx-subagent-open" title={`Open the sub-agent as the conversation shown (${agent.path})`}>
          open its thread
        </button>
      </div>
      {open && (
        <div className="tx-subagent-body" data-testid="tx-subagent-body">
          {error && <p className="error-text">{error}</p>}
          {!views && !error && <p className="loading">Loading the sub-agent’s messages…</p>}
          {views?.slice(0, shown).map((v) => (
            <div key={v.index} className={`tx-sub-message role-${v.normalRole}`} data-testid="tx-sub-message">
              <div className="tx-sub-head">
                <RoleChip role={v.role} normal={v.normalRole} />
                <span className="muted small">#{v.index}</span>
              </div>
              <TranscriptParts
                parts={v.parts}
                tool={v.normalRole === 'tool'}
                ctx={{ at: v.index, query, keyPrefix: `${foldKey}:`, links: false, resultOf: () => undefined, callOf: () => undefined, callName: (id) => (id ? names.get(id) : undefined), onGo: () => {} }}
              />
            </div>
          ))}
          {views && views.length > shown && (
            <button className="link small" onClick={() => setShown(shown + SHOWN)} data-testid="tx-subagent-more">
              show {formatNumber(Math.min(SHOWN, (agent.messages ?? shown + SHOWN) - shown))} more
            </button>
          )}
        </div>
      )}
    </div>
  );
}
