// The delta path gives the state a full reload gives: after every edit, undo, redo, save, compaction and
// change on disk, what the renderer holds (skeleton, table rows, counts), updated by `applyDelta` from the
// answers alone, equals what a second window with nothing cached opens and counts.
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Handlers } from '../../app/service/dispatch.js';
import { dispatchNow } from '../support/current-version.js';
import { createHandlers } from '../../app/service/handlers/index.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { EditState, Row, Skeleton, SkeletonDelta, TokenCounts } from '../../app/shared/contract.js';
import { applySkeletonDelta, skeletonDelta } from '../../app/shared/skeleton-delta.js';
import { applyDelta, type ConversationData } from '../../app/renderer/store/apply-delta.js';
import { cachedPlanSkeleton, carryPlanSkeleton, planSkeleton } from '../../app/renderer/features/window/plan-skeleton.js';
import { FIXTURES, tempDir } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const PAGE = 4;
const MODEL = 'gpt-4o';
const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

async function call<T>(handlers: Handlers, channel: string, input: unknown): Promise<T> {
  const r = await dispatchNow(handlers, channel, input);
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.message}`), { code: r.error.code });
  return r.value as T;
}

/** What a renderer holds, from a fresh open: skeleton, every page of rows, the counts. */
async function openFresh(handlers: Handlers, path: string): Promise<ConversationData> {
  const skeleton = await call<Skeleton>(handlers, 'conversation:open', { path });
  const pages = new Map<number, Row[]>();
  for (let p = 0; p * PAGE < skeleton.count; p++) pages.set(p, (await call<{ rows: Row[] }>(handlers, 'conversation:rows', { path, start: p * PAGE, count: PAGE })).rows);
  const counts = await call<TokenCounts>(handlers, 'tokens:count', { path, model: MODEL });
  return { skeleton, pages, counts };
}

/** The parts of the state that must agree (the version names a state; the fresh window numbers its own). */
function comparable(d: ConversationData) {
  const { version: _v, ...skeleton } = d.skeleton;
  const { path: _p, ...counts } = d.counts ?? ({} as TokenCounts);
  return { skeleton, counts: d.counts ? counts : undefined, pages: [...d.pages.entries()].sort((a, b) => a[0] - b[0]) };
}

type Step =
  | { kind: 'set-text'; at: number; text: string }
  | { kind: 'insert'; at: number; text: string; role: string }
  | { kind: 'delete'; at: number; n: number }
  | { kind: 'move'; at: number; to: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'undo' | 'redo' | 'save' | 'append-on-disk' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('set-text' as const), at: fc.nat(), text: edgeString }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: edgeString, role: fc.constantFrom('user', 'assistant', 'system', 'tool') }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('undo' as const, 'redo' as const, 'save' as const, 'append-on-disk' as const) }) },
);

/** Files of formats whose deltas take each path: built from the edited rows, or by comparing whole skeletons. */
const FILES = [
  { name: 'swarms conversation (JSON; deltas built from the edited rows)', from: 'swarms/conversation_demo.json', path: 'conversation_demo.json' },
  { name: 'swarms conversation (YAML)', from: 'swarms/conversation_demo.yaml', path: 'conversation_demo.yaml' },
  { name: 'swarms tool calls (JSON; tool messages without ids)', from: 'swarms/tool_calls.json', path: 'tool_calls.json' },
  { name: 'Claude Code session (usage deduplicated across lines)', from: 'formats/claude-code/session.jsonl', path: 'session.jsonl', line: (i: number) => JSON.stringify({ type: 'user', uuid: `u-${i}`, sessionId: 's', timestamp: '2026-11-20T10:00:00Z', message: { role: 'user', content: `line ${i} written by the agent` } }) },
  { name: 'ShareGPT dataset (tool turns without ids)', from: 'formats/sharegpt/dataset.json', path: 'dataset.json' },
  { name: 'OpenAI fine-tuning JSONL', from: 'formats/openai/finetune.jsonl', path: 'finetune.jsonl' },
  { name: 'Codex rollout', from: 'formats/codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl', path: 'rollout.jsonl' },
];

describe('deltas give the state a full reload gives', () => {
  for (const f of FILES) {
    it(`${f.name}: random edits, undo, redo, saves and writes on disk`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
          const dir = tempDir();
          cpSync(join(FIXTURES, f.from), join(dir, f.path));
          const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
          runtimes.push(rt);
          const window = rt.handlers;
          let shown = await openFresh(window, f.path);
          let appended = 0;
          const show = (delta: SkeletonDelta | undefined) => {
            expect(delta, 'a delta for the conversation shown').toBeDefined();
            expect(delta!.from).toBe(shown.skeleton.version);
            const before = shown;
            if (before.counts) cachedPlanSkeleton(before.skeleton, before.counts);
            shown = applyDelta(shown, delta!, PAGE);
            // The planners' skeleton spliced by the delta is the one built from the new state.
            carryPlanSkeleton(before, shown, delta!);
            if (shown.counts) expect(cachedPlanSkeleton(shown.skeleton, shown.counts)).toEqual(planSkeleton(shown.skeleton, shown.counts));
          };
          for (const s of steps) {
            const n = shown.skeleton.count;
            const edit = (command: unknown) => call<EditState>(window, 'edit:apply', { path: f.path, command });
            let state: EditState | undefined;
            try {
              if (s.kind === 'set-text' && n > 0) state = await edit({ type: 'set-text', index: s.at % n, text: s.text });
              else if (s.kind === 'insert') state = await edit({ type: 'insert', index: s.at % (n + 1), messages: [{ role: s.role, content: s.text }] });
              else if (s.kind === 'delete' && n > 0) state = await edit({ type: 'delete', indexes: Array.from({ length: Math.min(s.n, n - (s.at % n)) }, (_, k) => (s.at % n) + k) });
              else if (s.kind === 'move' && n > 1) state = await edit({ type: 'move', indexes: [s.at % n], to: s.to % n });
              else if (s.kind === 'duplicate' && n > 0) state = await edit({ type: 'duplicate', indexes: [s.at % n] });
              else if (s.kind === 'undo') state = await call<EditState>(window, 'edit:undo', { path: f.path });
              else if (s.kind === 'redo') state = await call<EditState>(window, 'edit:redo', { path: f.path });
              else if (s.kind === 'save') state = await call<EditState>(window, 'edit:save', { path: f.path, acceptProblems: true });
            } catch (e) {
              // Some edits are refused (a set-text on a record without one text): nothing changed then.
              if ((e as { code?: string }).code !== 'BAD_INPUT') throw e;
            }
            if (state) show(state.delta);
            if (s.kind === 'append-on-disk' && 'line' in f && f.line) {
              const edited = (await call<EditState>(window, 'edit:state', { path: f.path })).dirty;
              if (edited) continue;
              appendFileSync(join(dir, f.path), f.line(appended++) + '\n');
              const answer = await call<{ delta: SkeletonDelta } | { skeleton: Skeleton }>(window, 'conversation:update', { path: f.path, since: shown.skeleton.version, model: MODEL });
              expect('delta' in answer, 'a change on disk arrives as a delta').toBe(true);
              show((answer as { delta: SkeletonDelta }).delta);
            }
            // A second window with nothing cached: the full reload.
            const fresh = await openFresh(createHandlers(rt.context), f.path);
            // Counts the delta did not bring are counted again by the renderer: that count is the reference too.
            if (!shown.counts) shown = { ...shown, counts: await call<TokenCounts>(window, 'tokens:count', { path: f.path, model: MODEL }) };
            // Rows the delta did not bring are fetched when shown: only what the renderer holds is compared.
            const held = { ...fresh, pages: new Map([...fresh.pages].filter(([p]) => shown.pages.has(p))) };
            expect(comparable(shown)).toEqual(comparable(held));
            expect(shown.skeleton.count).toBe(fresh.skeleton.count);
          }
        }),
        { numRuns: Number(process.env.FC_RUNS ?? 25), ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}) },
      );
    }, 120_000);
  }

  it('skeletonDelta then applySkeletonDelta gives the later skeleton, for skeletons of random edits of every fixture', async () => {
    const { a, b } = await openedBeforeAndAfter((file) => writeFileSync(file, readFileSync(file, 'utf8').split('\n').reverse().join('\n')));
    const { version: _a, ...applied } = applySkeletonDelta(a, skeletonDelta(a, b));
    const { version: _b, ...expected } = b;
    expect(applied).toEqual(expected);
  });
});

/** The Claude Code fixture's skeleton as opened, and as a fresh open gives it once `change` has changed its file. */
async function openedBeforeAndAfter(change: (file: string) => void): Promise<{ a: Skeleton; b: Skeleton }> {
  const dir = tempDir();
  cpSync(join(FIXTURES, 'formats/claude-code/session.jsonl'), join(dir, 'session.jsonl'));
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  const a = await call<Skeleton>(rt.handlers, 'conversation:open', { path: 'session.jsonl' });
  change(join(dir, 'session.jsonl'));
  return { a, b: await call<Skeleton>(createHandlers(rt.context), 'conversation:open', { path: 'session.jsonl' }) };
}

describe('what began the part shown travels with a delta', () => {
  it('a session resumed into its file after it was opened: the delta says the part shown began with the resume, as a fresh open does', async () => {
    // A new root of another session id (Claude Code resumed into the same file): the model was sent nothing of before.
    const { a, b } = await openedBeforeAndAfter((file) => appendFileSync(file, JSON.stringify({ type: 'user', uuid: 'u-resumed', parentUuid: null, sessionId: 'another', timestamp: '2026-11-20T10:00:00Z', message: { role: 'user', content: 'and now the tests' } }) + '\n'));
    expect(a.earlierBy).toBeUndefined();
    expect(b.earlierBy).toBe('resume');
    const { version: _a, ...applied } = applySkeletonDelta(a, skeletonDelta(a, b));
    const { version: _b, ...expected } = b;
    expect(applied).toEqual(expected);
    // And back: a delta to a skeleton without it leaves none.
    const { version: _c, ...back } = applySkeletonDelta(b, skeletonDelta(b, a));
    expect(back.earlierBy).toBeUndefined();
  });
});

describe('a change on disk is a delta of what changed, not of every row', () => {
  /** Counts every message it is asked to count. */
  class CountingTokens extends InlineTokenService {
    counted = 0;
    override count(...args: Parameters<InlineTokenService['count']>) {
      this.counted += args[0].parts.length;
      return super.count(...args);
    }
  }
  const line = (i: number) => JSON.stringify({ type: i % 2 ? 'assistant' : 'user', uuid: `u-${i}`, parentUuid: i ? `u-${i - 1}` : null, sessionId: 's', timestamp: `2026-11-02T09:00:${String(i % 60).padStart(2, '0')}.000Z`, message: { role: i % 2 ? 'assistant' : 'user', content: `message ${i} of a session` } }) + '\n';

  it.each(['a.jsonl', 'a.json'])('%s: lines an agent appends come as the rows they add; every other row keeps its count', async (name) => {
    const dir = tempDir();
    const n = 400;
    const file = join(dir, name);
    const write = (k: number) => (name.endsWith('.jsonl') ? Array.from({ length: k }, (_, i) => line(i)).join('') : JSON.stringify(Array.from({ length: k }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}` })), null, 2));
    writeFileSync(file, write(n));
    const tokens = new CountingTokens();
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens, historyDir: tempDir(), watch: false });
    runtimes.push(rt);
    const opened = await openFresh(rt.handlers, name);
    expect(tokens.counted).toBe(n);
    if (name.endsWith('.jsonl')) appendFileSync(file, line(n) + line(n + 1));
    else writeFileSync(file, write(n + 2));
    const answer = await call<{ delta?: SkeletonDelta }>(rt.handlers, 'conversation:update', { path: name, since: opened.skeleton.version, model: MODEL });
    // The old last row renders with a separator now: it comes again, with the two new ones.
    expect(answer.delta).toMatchObject({ start: n - 1, deleteCount: 1 });
    expect(answer.delta!.rows).toHaveLength(3);
    expect(answer.delta!.counts?.tokens).toHaveLength(3);
    // Counted again: the two new messages and the one before them (its rendered block changed), no more.
    expect(tokens.counted).toBeLessThanOrEqual(n + 3);
    const after = applyDelta(opened, answer.delta!, PAGE);
    const fresh = await openFresh(createHandlers(rt.context), name);
    expect(comparable(after)).toEqual(comparable(fresh));
  });
});

describe('a file that grew is read as an append', () => {
  const line = (i: number) => JSON.stringify({ type: i % 2 ? 'assistant' : 'user', uuid: `u-${i}`, parentUuid: i ? `u-${i - 1}` : null, sessionId: 's', timestamp: `2026-11-02T09:00:${String(i % 60).padStart(2, '0')}.000Z`, message: { role: i % 2 ? 'assistant' : 'user', content: `message ${i} of a session` } }) + '\n';

  it('only the new lines are read: the records read before stay the same objects; a rewrite is read whole', async () => {
    const dir = tempDir();
    const file = join(dir, 's.jsonl');
    writeFileSync(file, Array.from({ length: 300 }, (_, i) => line(i)).join(''));
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), watch: false });
    runtimes.push(rt);
    const opened = await openFresh(rt.handlers, 's.jsonl');
    const first = rt.context.documents.peek(file)!.file.doc.conversations[0].records[0];
    // Half a line first (the agent is writing it), then the rest of it and one more.
    const next = line(300);
    appendFileSync(file, next.slice(0, 40));
    const a = await call<{ delta?: SkeletonDelta }>(rt.handlers, 'conversation:update', { path: 's.jsonl', since: opened.skeleton.version, model: MODEL });
    expect(rt.context.documents.peek(file)!.file.doc.conversations[0].records[0]).toBe(first);
    expect(a.delta).toMatchObject({ start: 299, deleteCount: 1 });
    appendFileSync(file, next.slice(40) + line(301));
    const afterOne = applyDelta(opened, a.delta!, PAGE);
    const b = await call<{ delta?: SkeletonDelta }>(rt.handlers, 'conversation:update', { path: 's.jsonl', since: afterOne.skeleton.version, model: MODEL });
    expect(rt.context.documents.peek(file)!.file.doc.conversations[0].records[0]).toBe(first);
    expect(b.delta).toMatchObject({ start: 299, deleteCount: 1 });
    expect(b.delta!.rows).toHaveLength(3);
    const after = applyDelta(afterOne, b.delta!, PAGE);
    expect(comparable(after)).toEqual(comparable(await openFresh(createHandlers(rt.context), 's.jsonl')));
    // Rewritten (not only grown): the bytes before the old end changed, so it is read again whole.
    writeFileSync(file, readFileSync(file, 'utf8').replace('message 0 of', 'message zero of') + line(302));
    await call(rt.handlers, 'conversation:update', { path: 's.jsonl', since: after.skeleton.version, model: MODEL });
    const reread = rt.context.documents.peek(file)!.file.doc.conversations[0].records[0] as { message: { content: string } };
    expect(reread).not.toBe(first);
    expect(reread.message.content).toBe('message zero of a session');
  });
});
