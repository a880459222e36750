import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timestampBetween } from '../../src/core/editing/timestamps.js';

describe('a message put between two by hand is timed between them, written as they are', () => {
  it('UTC with milliseconds, local with microseconds, without a fraction, with a space', () => {
    expect(timestampBetween('2026-11-24T09:00:03.100Z', '2026-11-24T09:00:03.900Z')).toBe('2026-11-24T09:00:03.500Z');
    expect(timestampBetween('2026-01-15T10:00:01.250000', '2026-01-15T10:00:01.250731')).toBe('2026-01-15T10:00:01.250366');
    expect(timestampBetween('2026-01-15T10:00:00', '2026-01-15T10:00:10')).toBe('2026-01-15T10:00:05');
    expect(timestampBetween('2026-01-15 23:59:58', '2026-01-16 00:00:02')).toBe('2026-01-16 00:00:00');
    // Three put in one place: evenly apart, in order.
    expect([0, 1, 2].map((k) => timestampBetween('2026-11-24T09:00:00.000Z', '2026-11-24T09:00:04.000Z', k, 3))).toEqual(['2026-11-24T09:00:01.000Z', '2026-11-24T09:00:02.000Z', '2026-11-24T09:00:03.000Z']);
    // An offset is the same instant written in UTC.
    expect(timestampBetween('2026-11-24T10:00:00.000+01:00', '2026-11-24T10:00:02.000+01:00')).toBe('2026-11-24T09:00:01.000Z');
  });

  it('one neighbour timed: its time; none, or none readable: undefined (the format decides)', () => {
    expect(timestampBetween('2026-11-24T09:00:03.100Z', undefined)).toBe('2026-11-24T09:00:03.100Z');
    expect(timestampBetween(undefined, '2026-01-15T10:00:01.250731')).toBe('2026-01-15T10:00:01.250731');
    expect(timestampBetween(undefined, undefined)).toBeUndefined();
    expect(timestampBetween('yesterday-ish', ' ')).toBeUndefined();
  });

  it('always between its neighbours, whichever their times (property)', () => {
    const time = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2090, 0, 1) });
    fc.assert(
      fc.property(time, time, fc.integer({ min: 1, max: 5 }), fc.boolean(), (x, y, n, utc) => {
        const [a, b] = x <= y ? [x, y] : [y, x];
        const iso = (ms: number) => (utc ? new Date(ms).toISOString() : new Date(ms).toISOString().replace('Z', ''));
        const out = Array.from({ length: n }, (_, k) => timestampBetween(` ${iso(a)}\t`, iso(b), k, n)!);
        const ms = out.map((t) => Date.parse(utc ? t : `${t}Z`));
        expect(ms.every((t, k) => t >= a && t <= b && (k === 0 || t >= ms[k - 1]))).toBe(true);
      }),
    );
  });
});
