// @vitest-environment happy-dom
// A big file's ends while it is read: every message placed, End landing at once, no rows asked for between the
// ends (they come with the parse), and the tail's rows kept only if the file still ends where they were read.
import { afterEach, describe, expect, it } from 'vitest';
import type { Row, Skeleton } from '../../app/shared/contract.js';
import { UNREAD_ROLE } from '../../app/shared/contract.js';
import { setBridge } from '../../app/renderer/api/client.js';
import { PAGE_SIZE } from '../../app/renderer/store/conversation.js';
import { useApp } from '../../app/renderer/store/index.js';
import { swarmsSkeleton } from '../support/skeleton.js';

function skeletonOf(count: number, version: number, unread: [number, number] = [count, count]): Skeleton {
  const inside = (i: number) => i >= unread[0] && i < unread[1];
  return swarmsSkeleton(count, {
    path: 'big.json',
    version,
    bytes: 50 * 1024 * 1024,
    roles: ['user', 'assistant', UNREAD_ROLE],
    normalRoles: ['user', 'assistant', 'other'],
    roleOf: Array.from({ length: count }, (_, i) => (inside(i) ? 2 : i % 2)),
    lengths: new Array(count).fill(10),
  });
}

const rows = (from: number, to: number, tag = ''): Row[] => Array.from({ length: to - from }, (_, k) => ({ index: from + k, role: (from + k) % 2 ? 'assistant' : 'user', preview: `message ${from + k}${tag}` }));

/** The service as the store meets it: the head and the ends answered at once, the whole read when released. */
function serve(whole: number) {
  const asked: Array<{ channel: string; input: Record<string, unknown> }> = [];
  let release: () => void = () => {};
  const read = new Promise<void>((r) => (release = r));
  setBridge({
    request: async (channel, input) => {
      const i = input as Record<string, unknown>;
      asked.push({ channel, input: i });
      if (channel === 'conversation:peek' && !i.ends) return { ok: true, value: { skeleton: skeletonOf(300, -1), rows: rows(0, 300), size: 50 << 20, read: 512 << 10, estimated: 1100 } };
      if (channel === 'conversation:peek') return { ok: true, value: { skeleton: skeletonOf(1000, -1, [300, 600]), rows: rows(600, 1000, ' (tail)'), from: 600, head: 300, size: 50 << 20, read: 50 << 20 } };
      if (channel === 'conversation:open') {
        await read;
        return { ok: true, value: skeletonOf(whole, 1) };
      }
      if (channel === 'conversation:rows') return { ok: true, value: { rows: rows(i.start as number, Math.min(whole, (i.start as number) + (i.count as number))) } };
      return { ok: false, error: { code: 'INTERNAL', message: `not in this test: ${channel}` } };
    },
    subscribe: () => () => {},
  });
  return { asked, release };
}

const settle = async () => {
  for (let k = 0; k < 20; k++) await new Promise((r) => setTimeout(r, 0));
};

afterEach(() => useApp.setState({ openPath: undefined, skeleton: undefined, provisional: undefined, opening: false, pages: new Map(), selected: undefined, pendingJump: undefined }));

describe('a big file shown by its ends while it is read', () => {
  for (const [label, whole, kept] of [
    ['still ending there: the tail rows stay', 1000, true],
    ['grown meanwhile: the tail rows go and are asked for again', 1003, false],
  ] as const) {
    it(label, async () => {
      const { asked, release } = serve(whole);
      useApp.setState({ entries: [{ path: 'big.json', name: 'big', bytes: 50 << 20, modified: 0, format: 'swarms-json', messages: 1100, estimated: true }] });
      const opened = useApp.getState().openConversation('big.json');
      await settle();
      const s = useApp.getState();
      expect(s.opening).toBe(true);
      expect(s.skeleton?.count).toBe(1000);
      expect(s.provisional?.ends).toEqual({ head: 300, from: 600, count: 1000 });
      expect(s.entries[0]).toMatchObject({ messages: 1000, estimated: false });
      // End lands on the last message at once, its row from the tail.
      s.jumpTo('end');
      expect(useApp.getState().selected).toBe(999);
      expect(useApp.getState().pendingJump).toBeUndefined();
      expect(useApp.getState().pages.get(Math.floor(999 / PAGE_SIZE))?.[999 % PAGE_SIZE]?.preview).toBe('message 999 (tail)');
      // Rows between the ends are not asked for while the file is read (they would wait for the parse).
      useApp.getState().ensureRows(400, 800);
      await settle();
      expect(asked.filter((a) => a.channel === 'conversation:rows')).toEqual([]);
      release();
      await opened;
      await settle();
      const after = useApp.getState();
      expect(after.opening).toBe(false);
      expect(after.skeleton?.count).toBe(whole);
      expect(after.selected).toBe(999);
      const tail = after.pages.get(Math.floor(999 / PAGE_SIZE))?.[999 % PAGE_SIZE]?.preview;
      expect(tail).toBe(kept ? 'message 999 (tail)' : undefined);
      after.ensureRows(400, whole);
      await settle();
      const askedRows = asked.filter((a) => a.channel === 'conversation:rows').map((a) => a.input.start as number);
      expect(askedRows).toContain(400);
      expect(askedRows.includes(800)).toBe(!kept);
    });
  }
});
