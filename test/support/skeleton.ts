import type { Skeleton } from '../../app/shared/contract.js';

/**
 * A skeleton of a swarms JSON file of `count` messages, user and assistant in turn, nothing else about them
 * known; `fields` say what a test needs otherwise.
 */
export function swarmsSkeleton(count: number, fields: Partial<Skeleton> = {}): Skeleton {
  return {
    path: 'x.json',
    conversation: 0,
    conversations: 1,
    format: 'swarms-json',
    formatLabel: 'swarms conversation (JSON)',
    swarms: true,
    other: 0,
    usage: { at: [], values: [] },
    version: 1,
    count,
    bytes: 1,
    roles: ['user', 'assistant'],
    normalRoles: ['user', 'assistant'],
    roleOf: Array.from({ length: count }, (_, i) => i % 2),
    categories: [],
    categoryOf: new Array<number>(count).fill(-1),
    flags: new Array<number>(count).fill(0),
    storedTokens: new Array<number>(count).fill(-1),
    lengths: new Array<number>(count).fill(1),
    toolCalls: { at: [], values: [] },
    toolResults: { at: [], values: [] },
    ...fields,
  };
}
