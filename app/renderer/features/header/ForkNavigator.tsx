import { useState } from 'react';
import type { Skeleton } from '../../../shared/contract.js';
import { useAppPick } from '../../store/index.js';
import { formatNumber } from '../roles.js';
import { BranchTree } from '../tree/BranchTree.js';
import { Popover } from './Popover.js';

type Fork = NonNullable<Skeleton['forks']>[number];

/** Where the selection stands among the forks of the path shown: the fork it is on, or between which. */
export function forkSteps(onPath: readonly Fork[], selected: number | undefined): { at: number; prev?: number; next?: number } {
  const places = onPath.map((f) => f.at).sort((a, b) => a - b);
  const at = selected === undefined ? -1 : places.indexOf(selected);
  const prev = selected === undefined ? undefined : [...places].reverse().find((p) => p < selected);
  const next = selected === undefined ? places[0] : places.find((p) => p > selected);
  return { at, prev, next };
}

/**
 * The places this thread went two ways (a rewind, an edited prompt, a regenerated answer), as a navigator: how
 * many (forkPoints' count: the CLI's and the branch tree's), ‹ › from one on this path to the next, and the list
 * in a popover, with every branch a click further. The ‹ 1/2 › beside a row's number switches branch there.
 */
export function ForkNavigator({ skeleton }: { skeleton: Skeleton }) {
  const { selected, select, openCompare } = useAppPick('selected', 'select', 'openCompare');
  const [open, setOpen] = useState(false);
  const [tree, setTree] = useState(false);
  const count = skeleton.forkCount ?? skeleton.forks?.length ?? 0;
  if (count === 0) return null;
  const onPath = [...(skeleton.forks ?? [])].sort((a, b) => a.at - b.at);
  const { at, prev, next } = forkSteps(onPath, selected);
  const off = count - onPath.length;
  const said = `${formatNumber(count)} fork${count === 1 ? '' : 's'}`;
  const where = onPath.length === count ? 'all on this path' : onPath.length === 0 ? 'none on this path' : `${formatNumber(onPath.length)} on this path`;
  return (
    <span className="fork-nav" role="group" aria-label="Forks of this thread" data-testid="fork-nav" data-forks={count} data-on-path={onPath.length}>
      <button className="nav-step" disabled={prev === undefined} onClick={() => prev !== undefined && select(prev)} aria-label={prev === undefined ? 'No fork before this on the path' : `The fork before, at #${prev}`} title={prev === undefined ? undefined : `The fork at #${prev}`} data-testid="fork-prev-place">
        ‹
      </button>
      <Popover
        label="Forks of this thread"
        testid="fork-list-toggle"
        open={open}
        onOpen={setOpen}
        title={`The thread went two ways in ${count === 1 ? 'one place' : `${formatNumber(count)} places`} (a rewind, an edited prompt, a regenerated answer), ${where}`}
        content={
          <span data-testid="fork-note">
            {at >= 0 ? `fork ${formatNumber(at + 1)}/${formatNumber(onPath.length)}` : said}
          </span>
        }
      >
        <div className="menu-list fork-list" data-testid="fork-list">
          <p className="menu-note muted">
            {said}: {where}. ‹ › beside a row&apos;s number switch branch there.
          </p>
          {onPath.map((f) => {
            // The branch shown beside the one the session went on with (or the next one, where it is that one).
            const other = f.continued !== undefined && f.continued >= 0 && f.continued !== f.chosen ? f.continued : (f.chosen + 1) % f.options;
            return (
              <span key={f.at} className="menu-row">
                <button
                  className="menu-item"
                  aria-current={f.at === selected ? 'true' : undefined}
                  onClick={() => {
                    select(f.at);
                    setOpen(false);
                  }}
                  data-testid="fork-place"
                  data-at={f.at}
                >
                  <span>#{formatNumber(f.at)}</span>
                  <span className="muted">
                    branch {f.chosen + 1} of {f.options}
                    {f.continued === undefined ? '' : f.continued === f.chosen ? ' · went on' : ` · went on with ${f.continued + 1}`}
                  </span>
                </button>
                <button
                  className="menu-item compare-branch"
                  title={`Compare branch ${f.chosen + 1} with branch ${other + 1} of the fork at #${f.at}, side by side`}
                  aria-label={`Compare branch ${f.chosen + 1} with branch ${other + 1} at #${f.at}`}
                  onClick={() => {
                    setOpen(false);
                    const side = (option: number) => ({ path: skeleton.path, conversation: skeleton.conversation, branch: { at: f.at, option } });
                    void openCompare({ a: side(f.chosen), b: side(other) });
                  }}
                  data-testid="fork-compare"
                >
                  compare
                </button>
              </span>
            );
          })}
          <button className="menu-item" onClick={() => setTree(true)} data-testid="show-branch-tree">
            <span>Every branch{off > 0 ? ` (${formatNumber(off)} fork${off === 1 ? '' : 's'} off this path)` : ''}…</span>
          </button>
        </div>
      </Popover>
      <button className="nav-step" disabled={next === undefined} onClick={() => next !== undefined && select(next)} aria-label={next === undefined ? 'No fork after this on the path' : `The fork after, at #${next}`} title={next === undefined ? undefined : `The fork at #${next}`} data-testid="fork-next-place">
        ›
      </button>
      {tree && (
        <BranchTree
          skeleton={skeleton}
          onClose={() => {
            setTree(false);
          }}
        />
      )}
    </span>
  );
}
