import type { RequestOutput, Skeleton } from '../../../shared/contract.js';
import { FLAGS } from '../../../shared/contract.js';
import { useApp, useAppPick } from '../../store/index.js';
import { formatNumber } from '../roles.js';

type View = RequestOutput<'conversation:message'>['view'];
type Links = NonNullable<ReturnType<typeof useApp.getState>['links']>;

/** How far a compaction's summary may follow its boundary (Claude Code writes it right after; a hook line or two may come between). */
const SUMMARY_WITHIN = 4;

/** The row of the summary a boundary at `at` starts its part with, if the path shows it. */
export function summaryRowOf(skeleton: Skeleton, at: number): number | undefined {
  for (let i = at + 1; i < Math.min(skeleton.count, at + 1 + SUMMARY_WITHIN); i++) {
    if ((skeleton.flags[i] & FLAGS.summary) !== 0) return i;
    if ((skeleton.flags[i] & FLAGS.compaction) !== 0) return undefined;
  }
  return undefined;
}

/**
 * The transcripts of the helper that wrote a session's compaction summaries (Claude Code's
 * `subagents/agent-acompact-*.jsonl`), among its sub-agents' files: the hook for linking a compaction to its
 * helper's own file. Listed as the session folder has them; which compaction each wrote is not said by the file.
 */
export function compactionHelpers(links: Links | undefined): Links['subagents'] {
  return links ? links.subagents.filter((a) => /^acompact/.test(a.agentId)) : [];
}

const seconds = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);

/** A compaction boundary: what it replaced, what came after it (the summary, a click away), and the helper that wrote it. */
export function CompactionCard({ view, skeleton, index }: { view: View; skeleton: Skeleton; index: number }) {
  const { select, counts, links, openConversation } = useAppPick('select', 'counts', 'links', 'openConversation');
  const c = view.compaction;
  if (!c) return null;
  const summary = summaryRowOf(skeleton, index);
  const summaryTokens = summary !== undefined && counts?.path === skeleton.path && counts.conversation === skeleton.conversation ? counts.tokens[summary] : undefined;
  const helpers = compactionHelpers(links?.path === skeleton.path ? links : undefined);
  return (
    <div className="card compaction" data-testid="compaction-card">
      <div className="card-head">
        <strong>● Compacted</strong>
        {c.trigger && <span className="muted"> · {c.trigger === 'auto' ? 'automatically, the window being full' : c.trigger === 'manual' ? 'by /compact' : c.trigger}</span>}
        {c.durationMs !== undefined && <span className="muted"> · the summary took {seconds(c.durationMs)}</span>}
      </div>
      <dl className="compaction-sizes">
        <dt>Before</dt>
        <dd data-testid="compaction-before">{c.preTokens !== undefined ? `${formatNumber(c.preTokens)} tokens, as the tool measured the context it replaced` : 'not recorded'}</dd>
        <dt>After</dt>
        <dd data-testid="compaction-after">
          {c.postTokens !== undefined ? `${formatNumber(c.postTokens)} tokens, as the tool measured what the model was sent next` : 'not recorded by the tool'}
          {summary !== undefined && (
            <>
              {' · '}
              <button className="link" onClick={() => select(summary)} data-testid="compaction-summary">
                the summary, message {summary}
              </button>
              {summaryTokens !== undefined && ` (${formatNumber(summaryTokens)} tokens counted here)`}
            </>
          )}
          {summary === undefined && ' · no summary follows it on this path'}
        </dd>
      </dl>
      {helpers.length > 0 && (
        <p className="muted" data-testid="compaction-helper">
          The summary was written by a helper whose own transcript{helpers.length === 1 ? ' is' : 's are'} in the session folder:{' '}
          {helpers.map((a) => (
            <button key={a.path} className="link" onClick={() => void openConversation(a.path, 0)} title={a.path}>
              {a.path.replace(/^.*\//, '')}
            </button>
          ))}
        </p>
      )}
    </div>
  );
}
