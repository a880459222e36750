import { useEffect, useMemo, useState } from 'react';
import type { Skeleton } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { addUp, costFloorText, costOf, costText, describeUsage, formatUsd, priceless, priceSourcesText } from '../../../../src/core/usage.js';
import type { ModelPrice } from '../../../../src/core/pricing/prices.js';
import { useApp } from '../../store/index.js';

/**
 * What the API reported for the conversation's model calls (each once, as the skeleton keeps them), and what
 * that cost at list prices: the dated table, with the rows the settings override.
 */
export function ReportedUsage({ skeleton }: { skeleton: Skeleton }) {
  const [prices, setPrices] = useState<Record<string, ModelPrice>>({});
  useEffect(() => {
    request('settings:get', {}).then(
      (s) => setPrices(s.prices ?? {}),
      () => {},
    );
  }, []);
  const report = useMemo(() => addUp(skeleton.sessionUsage ?? skeleton.usage.values), [skeleton.usage, skeleton.sessionUsage]);
  // The thread's calls on branches its path does not take count in its total, said apart.
  const withBranches = useMemo(() => (skeleton.otherBranchUsage ? addUp([...skeleton.usage.values, ...skeleton.otherBranchUsage.map((u) => ({ ...u, branch: true }))]) : undefined), [skeleton.usage, skeleton.otherBranchUsage]);
  // The session as the list of sessions shows it (every branch, the history before its compactions).
  const listed = useApp((s) => s.sessionsAnswer?.sessions.find((x) => x.path === skeleton.path && x.conversation === skeleton.conversation));
  if (!report) return withBranches ? <BranchCalls report={withBranches} /> : null;
  const cost = costOf(report, prices);
  const models = Object.keys(report.byModel);
  return (
    <section aria-label="Reported by the API" data-testid="reported-usage">
      <h3>Reported by the API</h3>
      <p>
        {report.calls.toLocaleString('en-US')} model call{report.calls === 1 ? '' : 's'}: {describeUsage(report)}
      </p>
      <p data-testid="reported-cost-line" title={`${cost.sources.length ? `List prices, each from its provider's page as read on the day given:\n${priceSourcesText(cost)}` : `List prices of ${cost.dated}`}${cost.unpriced.length ? `\nNo price for ${priceless(cost.unpriced)}` : ''}\nSettings can put a price of your own in place of a row`}>
        {cost.unpriced.length === models.length && models.length > 0 ? (
          <span data-testid="reported-cost">{costText(cost, models.length)}</span>
        ) : (
          <>
            <strong data-testid="reported-cost">{formatUsd(cost.usd)}</strong> at list prices ({cost.dated}){costFloorText(cost) ? `, ${costFloorText(cost)}` : ''}
            {cost.unpriced.length ? ` · no price for ${priceless(cost.unpriced)}` : ''}
          </>
        )}
      </p>
      {withBranches && <BranchCalls report={withBranches} />}
      {listed && listed.calls > report.calls && (
        <p className="muted" data-testid="reported-session" title="As the list of sessions counts it: every call the session's file reports, on every branch and before each compaction, each once (a sub-agent written to a file of its own is listed apart).">
          The whole session: {listed.calls.toLocaleString('en-US')} model calls{listed.costUsd !== undefined && listed.costUsd > 0 ? `, ${formatUsd(listed.costUsd)} at list prices` : ''}, as the list of sessions shows it
        </p>
      )}
    </section>
  );
}

/** The thread's calls with those on its other branches: "with its other branches: 9 calls …, of which 2 on them". */
function BranchCalls({ report }: { report: NonNullable<ReturnType<typeof addUp>> }) {
  const other = report.otherBranches;
  if (!other) return null;
  return (
    <p className="muted" data-testid="reported-other-branches" title="Calls made on branches this path does not take (a rewind's abandoned replies, an answer written again): the API reported them too.">
      With the thread&apos;s other branches: {report.calls.toLocaleString('en-US')} model call{report.calls === 1 ? '' : 's'}, {describeUsage(report)}; of which on other branches: {other.calls.toLocaleString('en-US')} call{other.calls === 1 ? '' : 's'}, {describeUsage(other)}
    </p>
  );
}
