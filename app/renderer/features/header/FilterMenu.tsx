import { useMemo } from 'react';
import { FLAGS, UNREAD_ROLE, type Skeleton } from '../../../shared/contract.js';
import { useAppPick } from '../../store/index.js';
import { NO_CATEGORY } from '../table/order.js';
import { Popover } from './Popover.js';

/** The table's filters by role, sub-agent and category, folded into one button that says how many are on. */
export function FilterMenu({ skeleton, betweenEnds }: { skeleton: Skeleton; betweenEnds: boolean }) {
  const { roleFilter, toggleRole, categoryFilter, toggleCategory, chainFilter, setChainFilter } = useAppPick('roleFilter', 'toggleRole', 'categoryFilter', 'toggleCategory', 'chainFilter', 'setChainFilter');
  // A pass over every message: asked once per skeleton, not on every render (a slider step renders this).
  const hasSidechain = useMemo(() => skeleton.flags.some((f) => f & FLAGS.sidechain), [skeleton]);
  const categories = [...skeleton.categories, ...(skeleton.categoryOf.includes(-1) ? [NO_CATEGORY] : [])];
  const roles = skeleton.roles.filter((r) => !(betweenEnds && r === UNREAD_ROLE));
  // A session shown as its threads has one thread per view: no sub-agent rows to filter.
  const chains = hasSidechain && !skeleton.threads;
  const on = roleFilter.size + categoryFilter.size + (chainFilter !== 'all' ? 1 : 0);
  return (
    <Popover
      label="Filter the messages"
      testid="filter-menu"
      title="Show only some roles, categories or threads"
      content={
        <>
          Filter{on > 0 ? ` · ${on}` : ''} ▾
        </>
      }
      buttonProps={{ 'aria-label': on > 0 ? `Filter (${on} on)` : 'Filter' }}
    >
      <div className="filter-groups">
        <span className="filters" role="group" aria-label="Filter by role">
          {roles.map((r) => (
            <button key={r} className={`chip-toggle ${roleFilter.has(r) ? 'on' : ''}`} aria-pressed={roleFilter.has(r)} onClick={() => toggleRole(r)}>
              {r}
            </button>
          ))}
        </span>
        {chains && (
          <span className="filters" role="group" aria-label="Sub-agent messages">
            {(['all', 'main', 'sidechain'] as const).map((c) => (
              <button key={c} className={`chip-toggle ${chainFilter === c ? 'on' : ''}`} aria-pressed={chainFilter === c} onClick={() => setChainFilter(c)} data-testid={`chain-${c}`}>
                {c === 'all' ? 'all' : c === 'main' ? 'main thread' : '↳ sub-agents'}
              </button>
            ))}
          </span>
        )}
        {categories.length > 0 && (
          <span className="filters" role="group" aria-label="Filter by category">
            {categories.map((c) => (
              <button key={c} className={`chip-toggle ${categoryFilter.has(c) ? 'on' : ''}`} aria-pressed={categoryFilter.has(c)} onClick={() => toggleCategory(c)}>
                {c}
              </button>
            ))}
          </span>
        )}
      </div>
    </Popover>
  );
}
