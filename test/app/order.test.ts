import { describe, expect, it } from 'vitest';
import { swarmsSkeleton } from '../support/skeleton.js';
import { UNREAD_ROLE } from '../../app/shared/contract.js';
import { displayOrder } from '../../app/renderer/features/table/order.js';

const skeleton = swarmsSkeleton(5, {
  roles: ['System', 'user', 'assistant'],
  normalRoles: ['system', 'user', 'assistant'],
  roleOf: [0, 1, 2, 1, 2],
  categories: ['input', 'output'],
  categoryOf: [-1, 0, 1, 0, 1],
});
const times = [5, 4, 3, 2, 1];
const none = new Set<string>();

describe('displayOrder', () => {
  it('filters by role, category and search matches', () => {
    expect(displayOrder(skeleton, { roles: new Set(['user']), categories: none, sort: { key: 'index', desc: false } })).toEqual([1, 3]);
    expect(displayOrder(skeleton, { roles: none, categories: new Set(['(none)', 'output']), sort: { key: 'index', desc: false } })).toEqual([0, 2, 4]);
    expect(displayOrder(skeleton, { roles: none, categories: none, matches: new Set([4, 0]), sort: { key: 'index', desc: false } })).toEqual([0, 4]);
  });

  it('sorts by tokens, time and role, stably', () => {
    const tokens = [10, 50, 50, 1, 7];
    expect(displayOrder(skeleton, { tokens, roles: none, categories: none, sort: { key: 'tokens', desc: true } })).toEqual([1, 2, 0, 4, 3]);
    expect(displayOrder(skeleton, { times, roles: none, categories: none, sort: { key: 'time', desc: false } })).toEqual([4, 3, 2, 1, 0]);
    expect(displayOrder(skeleton, { roles: none, categories: none, sort: { key: 'role', desc: false } })).toEqual([0, 2, 4, 1, 3]);
    expect(displayOrder(skeleton, { roles: none, categories: none, sort: { key: 'index', desc: true } })).toEqual([4, 3, 2, 1, 0]);
  });

  it('while a file is read, a filter shows only messages read: those placed between its ends match none', () => {
    // Read: 0, 1 and 4; 2 and 3 placed, not read yet (a skeleton of both ends, version -1).
    const reading = swarmsSkeleton(5, { version: -1, roles: ['user', 'assistant', UNREAD_ROLE], normalRoles: ['user', 'assistant', 'other'], roleOf: [0, 1, 2, 2, 1] });
    const index = { key: 'index', desc: false } as const;
    expect(displayOrder(reading, { roles: none, categories: none, sort: index })).toEqual([0, 1, 2, 3, 4]);
    expect(displayOrder(reading, { roles: none, categories: new Set(['(none)']), sort: index })).toEqual([0, 1, 4]);
    expect(displayOrder(reading, { roles: none, categories: none, chain: 'main', sort: index })).toEqual([0, 1, 4]);
    expect(displayOrder(reading, { roles: new Set(['assistant']), categories: none, sort: index })).toEqual([1, 4]);
  });
});
