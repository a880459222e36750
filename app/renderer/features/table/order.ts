import { UNREAD_ROLE, type Skeleton } from '../../../shared/contract.js';
import type { SortKey } from '../../store/ui.js';

export interface OrderOptions {
  tokens?: readonly number[];
  times?: readonly number[];
  matches?: ReadonlySet<number>;
  /** Only these messages (those with a secret or personal datum). */
  only?: ReadonlySet<number>;
  roles: ReadonlySet<string>;
  categories: ReadonlySet<string>;
  /** 'main': without sub-agent (side chain) messages; 'sidechain': only those. */
  chain?: 'all' | 'main' | 'sidechain';
  sort: { key: SortKey; desc: boolean };
}

const SIDECHAIN = 32;

export const NO_CATEGORY = '(none)';

/** Message indexes in display order: filtered by role, category and search, then sorted (stable). */
export function displayOrder(skeleton: Skeleton, o: OrderOptions): number[] {
  const roleOk = o.roles.size === 0 ? undefined : new Set(skeleton.roles.map((r, k) => (o.roles.has(r) ? k : -1)).filter((k) => k >= 0));
  // A filter shows what is read: the messages a file being read has placed but not read yet match none.
  const filtering = roleOk !== undefined || o.categories.size > 0 || o.matches !== undefined || o.only !== undefined || (o.chain ?? 'all') !== 'all';
  const unread = filtering && skeleton.version < 0 ? skeleton.roles.indexOf(UNREAD_ROLE) : -1;
  const out: number[] = [];
  for (let i = 0; i < skeleton.count; i++) {
    if (unread !== -1 && skeleton.roleOf[i] === unread) continue;
    if (roleOk && !roleOk.has(skeleton.roleOf[i])) continue;
    if (o.categories.size > 0) {
      const c = skeleton.categoryOf[i];
      if (!o.categories.has(c === -1 ? NO_CATEGORY : skeleton.categories[c])) continue;
    }
    if (o.matches && !o.matches.has(i)) continue;
    if (o.only && !o.only.has(i)) continue;
    if (o.chain === 'main' && skeleton.flags[i] & SIDECHAIN) continue;
    if (o.chain === 'sidechain' && !(skeleton.flags[i] & SIDECHAIN)) continue;
    out.push(i);
  }
  const { key, desc } = o.sort;
  if (key === 'index' && !desc) return out;
  const value = (i: number): number | string =>
    key === 'index' ? i : key === 'tokens' ? (o.tokens?.[i] ?? -1) : key === 'time' ? (o.times?.[i] ?? i) : skeleton.roles[skeleton.roleOf[i]];
  const sign = desc ? -1 : 1;
  return out.sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    // Ties keep message order whichever way the column sorts.
    return (va < vb ? -1 : va > vb ? 1 : 0) * sign || a - b;
  });
}
