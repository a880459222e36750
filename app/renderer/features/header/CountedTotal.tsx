import { useMemo, type ReactNode } from 'react';
import type { Skeleton } from '../../../shared/contract.js';
import { addUp, describeUsage } from '../../../../src/core/usage.js';
import { estimateNote } from '../../../../src/core/tokenizer/estimate.js';
import { useApp } from '../../store/index.js';
import { formatNumber } from '../roles.js';
import { Sep } from './Sep.js';

/**
 * The header's token figure: what the file records the API reported leads (the last call's prompt and what was
 * written, with the cost at list prices), then the count made here, "≈" where it is an estimate, with the
 * encoding that stands in on hover.
 */
export function CountedTotal({ skeleton, after }: { skeleton: Skeleton; /** Said with the count (the file's own count, say). */ after?: ReactNode }) {
  const counts = useApp((s) => s.counts);
  const report = useMemo(() => addUp(skeleton.sessionUsage ?? skeleton.usage.values), [skeleton.usage, skeleton.sessionUsage]);
  const mine = counts && counts.path === skeleton.path && counts.conversation === skeleton.conversation ? counts : undefined;
  const note = mine ? estimateNote(mine.model, skeleton.model) : undefined;
  // Two figures of the header (SessionHeader: each shown whole or not at all): what was reported, what is counted.
  return (
    <>
      {report && (
        <span className="fig">
          <Sep />
          <span data-testid="header-reported" title={`Reported by the API for ${formatNumber(report.calls)} model call${report.calls === 1 ? '' : 's'}: ${describeUsage(report)}`}>
            {report.inputCalls === 0 ? 'input not recorded' : `${formatNumber(report.input)} in`} · {report.outputCalls === 0 ? 'output not recorded' : `${formatNumber(report.output)} out`} reported
          </span>
        </span>
      )}
      <span className="fig">
        <Sep />
        {note && (
          <span data-testid="token-estimate" title={`An estimate: ${note}`}>
            ≈{' '}
          </span>
        )}
        <span data-testid="token-total" title={note ? `Counted here, an estimate: ${note}` : mine ? `Counted here for ${mine.model} (${mine.encoding})` : undefined}>
          {mine ? `${formatNumber(mine.total)} tok` : '… tok'}
        </span>
        {after}
      </span>
    </>
  );
}

/** What the estimate is, for the notes: undefined where the count is exact (or not made yet). */
export function useEstimateNote(skeleton: Skeleton): string | undefined {
  const counts = useApp((s) => s.counts);
  const mine = counts && counts.path === skeleton.path && counts.conversation === skeleton.conversation ? counts : undefined;
  return mine ? estimateNote(mine.model, skeleton.model) : undefined;
}
