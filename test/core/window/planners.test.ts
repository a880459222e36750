import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyPlan,
  buildSkeleton,
  Conversation,
  getTokenizer,
  renderHistory,
  strategies,
  StrategyRegistry,
  summarizing,
  toolLinks,
  type Message,
  type WindowPlan,
  type WindowStrategy,
} from '../../../src/core/index.js';
import { tempDir } from '../../helpers.js';
import { history } from './arbitraries.js';

const t = getTokenizer('gpt-5.4');
const runs = Number(process.env.FC_RUNS ?? 150);
const skeletonOf = (messages: Message[]) => buildSkeleton(messages, t);
const contentTotal = (messages: Message[]) => buildSkeleton(messages, t).messages.reduce((n, m) => n + m.tokens, 0);
const summaryFor = (plan: WindowPlan) => plan.inserted.map((ins) => `Summary of ${ins.replaces.length} messages.`);

/** Every kept tool result whose call is not kept must be warned about. */
function expectOrphansWarned(messages: Message[], plan: WindowPlan): void {
  const present = (i: number) => plan.messages[i].fate === 'kept' || plan.messages[i].fate === 'cut';
  messages.forEach((m, i) => {
    const links = toolLinks(m);
    if (!present(i) || links.resultId === undefined) return;
    const call = messages.findIndex((c) => toolLinks(c).callIds.includes(links.resultId!));
    if (call !== -1 && !present(call)) {
      expect(plan.warnings.some((w) => w.code === 'orphaned-tool-result' && w.index === i)).toBe(true);
    }
  });
}

function expectNoSplitExchanges(messages: Message[], plan: WindowPlan): void {
  const present = (i: number) => plan.messages[i].fate === 'kept' || plan.messages[i].fate === 'cut';
  messages.forEach((m, i) => {
    const id = toolLinks(m).resultId;
    if (!present(i) || id === undefined) return;
    const call = messages.findIndex((c) => toolLinks(c).callIds.includes(id));
    if (call !== -1) expect(present(call)).toBe(true);
  });
}

describe('every strategy (properties)', () => {
  it.each(strategies.list().map((s) => s.id))('%s: one fate per message, consistent counts, plan of an empty history', (id) => {
    fc.assert(
      fc.property(history, (messages) => {
        const plan = strategies.plan(id, skeletonOf(messages), {});
        expect(plan.messages.map((f) => f.index)).toEqual(messages.map((_, i) => i));
        expect(Object.values(plan.counts).reduce((a, b) => a + b, 0)).toBe(messages.length);
        for (const f of plan.messages) expect(f.tokensAfter).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 40 },
    );
    expect(strategies.plan(id, skeletonOf([]), {}).messages).toEqual([]);
  });
});

describe('truncate', () => {
  it('keeps the budget, warns on orphans, totals equal a recount, and applying twice equals once', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 400 }), (messages, contextLength) => {
        const plan = strategies.plan('truncate', skeletonOf(messages), { contextLength });
        const applied = applyPlan(messages, plan, { measure: t });
        expect(plan.totalAfter).toBeLessThanOrEqual(contextLength);
        expect(plan.totalAfter).toBe(contentTotal(applied));
        expectOrphansWarned(messages, plan);
        const again = strategies.plan('truncate', skeletonOf(applied), { contextLength });
        expect(applyPlan(applied, again, { measure: t })).toEqual(applied);
      }),
      { numRuns: runs },
    );
  });

  it('agrees with Conversation.truncateMemoryWithTokenizer', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 300 }), (messages, contextLength) => {
        const c = new Conversation({ conversationsDir: tempDir(), contextLength: Math.max(1, contextLength) });
        c.batchAdd(structuredClone(messages));
        c.truncateMemoryWithTokenizer();
        const plan = strategies.plan('truncate', skeletonOf(messages), { contextLength: Math.max(1, contextLength) });
        expect(c.conversationHistory).toEqual(applyPlan(messages, plan, { measure: t }));
      }),
      { numRuns: 60 },
    );
  });
});

describe('dynamic-context-window', () => {
  it('text boundary: the longest fitting suffix of the rendered history, the same the Conversation returns', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 300 }), (messages, contextLength) => {
        const full = renderHistory(messages);
        const plan = strategies.plan('dynamic-context-window', skeletonOf(messages), { contextLength });
        const kept = full.slice(plan.renderedStart);
        expect(t.count(kept)).toBeLessThanOrEqual(contextLength);
        expect(plan.totalAfter).toBe(t.count(kept));
        // A second, independent implementation: search the whole string at once.
        expect(plan.renderedStart).toBe(t.fitSuffixStart(full, contextLength));
        // Trimming the trimmed text again changes nothing.
        expect(t.fitSuffixStart(kept, contextLength)).toBe(0);
        if (contextLength > 0) {
          const c = new Conversation({ conversationsDir: tempDir(), contextLength });
          c.batchAdd(messages);
          expect(c.returnHistoryAsString()).toBe(kept);
        }
        expectOrphansWarned(messages, plan);
      }),
      { numRuns: runs },
    );
  });

  it('message boundary: whole messages only, within budget, applying twice equals once', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 300 }), (messages, contextLength) => {
        const params = { contextLength, boundary: 'message' };
        const plan = strategies.plan('dynamic-context-window', skeletonOf(messages), params);
        expect(plan.counts.cut).toBe(0);
        const applied = applyPlan(messages, plan);
        expect(plan.totalAfter).toBe(applied.length ? t.count(renderHistory(applied)) : 0);
        expect(plan.totalAfter).toBeLessThanOrEqual(contextLength);
        expect(applyPlan(applied, strategies.plan('dynamic-context-window', skeletonOf(applied), params))).toEqual(applied);
      }),
      { numRuns: runs },
    );
  });

  it('without the text, plans from counts alone and marks its cut as estimated', () => {
    const messages: Message[] = Array.from({ length: 50 }, (_, i) => ({ role: 'user', content: `message ${i} `.repeat(20) }));
    const { messages: skeleton } = skeletonOf(messages);
    const plan = strategies.plan('dynamic-context-window', { messages: skeleton }, { contextLength: 1000 });
    expect(plan.counts.cut).toBe(1);
    expect(plan.warnings.some((w) => w.code === 'approximate-cut')).toBe(true);
    expect(plan.totalAfter).toBeLessThanOrEqual(1000);
  });
});

describe('last-n', () => {
  it('keeps exactly the last limit messages; limit 0 keeps none; default 10', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 20 }), (messages, limit) => {
        const plan = strategies.plan('last-n', skeletonOf(messages), { limit, keepStatic: false });
        const keptIdx = plan.messages.filter((f) => f.fate === 'kept').map((f) => f.index);
        expect(keptIdx).toEqual(messages.map((_, i) => i).slice(Math.max(0, messages.length - limit)));
        const applied = applyPlan(messages, plan);
        expect(plan.totalAfter).toBe(contentTotal(applied));
        expect(applyPlan(applied, strategies.plan('last-n', skeletonOf(applied), { limit, keepStatic: false }))).toEqual(applied);
        expectOrphansWarned(messages, plan);
      }),
      { numRuns: runs },
    );
    expect(strategies.plan('last-n', skeletonOf([]), {}).params).toEqual({ limit: 10, keepStatic: true });
  });
});

describe('sliding-window', () => {
  it('keeps at most windowSize recent messages and never starts on an orphaned tool result', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 20 }), (messages, windowSize) => {
        const plan = strategies.plan('sliding-window', skeletonOf(messages), { windowSize, keepStatic: false });
        const keptIdx = plan.messages.filter((f) => f.fate === 'kept').map((f) => f.index);
        expect(keptIdx.length).toBeLessThanOrEqual(windowSize);
        if (keptIdx.length) expect(keptIdx).toEqual(messages.map((_, i) => i).slice(keptIdx[0]));
        expectNoSplitExchanges(messages, plan);
        expect(plan.warnings.filter((w) => w.code === 'orphaned-tool-result')).toEqual([]);
        const applied = applyPlan(messages, plan);
        expect(plan.totalAfter).toBe(contentTotal(applied));
        expect(applyPlan(applied, strategies.plan('sliding-window', skeletonOf(applied), { windowSize, keepStatic: false }))).toEqual(applied);
      }),
      { numRuns: runs },
    );
  });
});

describe('summarizing', () => {
  it('keeps the static context and recent messages, never splits a tool exchange, and is a fixed point', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 200 }), (messages, keepRecentMessages, softThresholdTokens) => {
        const params = { keepRecentMessages, softThresholdTokens };
        const skeleton = skeletonOf(messages);
        const plan = strategies.plan('summarizing', skeleton, params);
        skeleton.messages.forEach((m, i) => {
          if (m.isStatic) expect(plan.messages[i].fate).toBe('kept');
        });
        const tail = plan.messages.slice(Math.max(0, messages.length - keepRecentMessages));
        for (const f of tail) expect(f.fate).toBe('kept');
        expectNoSplitExchanges(messages, plan);
        const summaries = summaryFor(plan);
        const withText = strategies.plan('summarizing', skeleton, { ...params, summaryTokens: summaries[0] ? t.count(summaries[0]) : null });
        const applied = applyPlan(messages, withText, { summaries });
        expect(withText.totalAfter).toBe(contentTotal(applied));
        const again = strategies.plan('summarizing', skeletonOf(applied), params);
        expect(again.counts.summarised).toBe(0);
      }),
      { numRuns: runs },
    );
  });

  it('does nothing under the soft threshold and the window', () => {
    const messages: Message[] = [{ role: 'System', content: 'S' }, ...Array.from({ length: 30 }, (_, i) => ({ role: 'user', content: `m${i}` }))];
    expect(strategies.plan('summarizing', skeletonOf(messages), {}).counts.summarised).toBe(0);
    const plan = strategies.plan('summarizing', skeletonOf(messages), { softThresholdTokens: 10 });
    expect(plan.counts).toMatchObject({ summarised: 20, kept: 11 });
    expect(plan.inserted).toEqual([{ kind: 'summary', role: 'System', before: 1, replaces: Array.from({ length: 20 }, (_, i) => i + 1), tokens: null }]);
  });

  it('warns when the summary still leaves the history over the window', () => {
    const messages: Message[] = Array.from({ length: 12 }, () => ({ role: 'user', content: 'word '.repeat(100) }));
    const plan = strategies.plan('summarizing', skeletonOf(messages), { contextWindowTokens: 50, softThresholdTokens: 10, keepRecentMessages: 5 });
    expect(plan.warnings.map((w) => w.code)).toContain('budget-exceeded');
  });
});

describe('null', () => {
  it('keeps everything', () => {
    fc.assert(
      fc.property(history, (messages) => {
        const plan = strategies.plan('null', skeletonOf(messages));
        expect(plan.counts.kept).toBe(messages.length);
        expect(plan.totalAfter).toBe(plan.totalBefore);
      }),
      { numRuns: 30 },
    );
  });
});

describe('user-defined strategies', () => {
  const tightBudget: WindowStrategy = {
    id: 'tight-budget',
    label: 'Tight budget',
    description: 'Summarising with an 8000-token window and 4 recent messages.',
    params: [],
    plan: (skeleton, params) => ({ ...summarizing.plan(skeleton, { ...params, contextWindowTokens: 8000, keepRecentMessages: 4, softThresholdTokens: 0 }), strategy: 'tight-budget' }),
  };

  it('are planned, listed and applied like the built-in ones', () => {
    const registry = new StrategyRegistry();
    registry.register(tightBudget);
    expect(registry.list().map((s) => s.id)).toEqual(['dynamic-context-window', 'truncate', 'last-n', 'sliding-window', 'summarizing', 'auto-compact', 'null', 'tight-budget']);
    const messages: Message[] = [{ role: 'System', content: 'S' }, ...Array.from({ length: 9 }, (_, i) => ({ role: 'user', content: `m${i}` }))];
    const plan = registry.plan('tight-budget', skeletonOf(messages));
    expect(plan.strategy).toBe('tight-budget');
    const applied = applyPlan(messages, plan, { summaries: ['summary'] });
    expect(applied.map((m) => m.content)).toEqual(['S', 'summary', 'm5', 'm6', 'm7', 'm8']);
  });

  it('cannot replace a built-in and need a clean id', () => {
    const registry = new StrategyRegistry();
    expect(() => registry.register({ ...tightBudget, id: 'truncate' })).toThrow(/built-in/);
    expect(() => registry.register({ ...tightBudget, id: 'Bad Id' })).toThrow(/lowercase/);
    expect(() => registry.plan('nope', skeletonOf([]))).toThrow(/unknown strategy "nope"/);
  });
});

describe('auto-compact counts what a request holds beside the messages', () => {
  it('the system prompt and tools bring the compaction forward by their size', () => {
    const messages: Message[] = Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i} `.repeat(20) }));
    const sk = skeletonOf(messages);
    const total = sk.messages.reduce((n, m) => n + m.tokens, 0);
    const window = Math.ceil(total / 0.9) + 10;
    // The messages alone fit under 90% of the window: nothing happens.
    expect(strategies.plan('auto-compact', sk, { contextWindowTokens: window, compactAt: '0.9' }).inserted).toEqual([]);
    // With a system prompt and tools of a tenth of the window, the request does not: the agent compacts.
    const plan = strategies.plan('auto-compact', sk, { contextWindowTokens: window, compactAt: '0.9', fixedTokens: Math.ceil(window / 10) });
    expect(plan.inserted.length).toBe(1);
    expect(plan.params).toMatchObject({ fixedTokens: Math.ceil(window / 10) });
  });

  it('a request still over the window after compacting is warned of with the window as set, the system prompt and tools named', () => {
    const messages: Message[] = Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i} `.repeat(20) }));
    const sk = skeletonOf(messages);
    const plan = strategies.plan('auto-compact', sk, { contextWindowTokens: 100, fixedTokens: 250, keepRecentMessages: 1 });
    const warning = plan.warnings.find((w) => w.code === 'budget-exceeded');
    expect(warning?.message).toBe(`after compacting, ${plan.totalAfter} tokens and the 250 of the system prompt and tools exceed the 100-token window`);
    const bare = strategies.plan('auto-compact', sk, { contextWindowTokens: 20, keepRecentMessages: 1 });
    expect(bare.warnings.find((w) => w.code === 'budget-exceeded')?.message).toBe(`after compacting, ${bare.totalAfter} tokens still exceed the 20-token window`);
  });
});

describe('applyPlan', () => {
  it('refuses a plan for another history and missing summary text', () => {
    const messages: Message[] = [{ role: 'user', content: 'a' }];
    const plan = strategies.plan('null', skeletonOf(messages));
    expect(() => applyPlan([...messages, ...messages], plan)).toThrow(/plan is for 1 messages/);
    const sum = strategies.plan('summarizing', skeletonOf([...messages, ...messages]), { softThresholdTokens: 0, keepRecentMessages: 0 });
    expect(() => applyPlan([...messages, ...messages], sum)).toThrow(/summary text/);
  });
});

describe('the static context (system prompt, rules, memory, a compaction summary at the start)', () => {
  const staticCount = (messages: Message[]) => skeletonOf(messages).messages.findIndex((m) => !m.isStatic) === -1 ? messages.length : skeletonOf(messages).messages.findIndex((m) => !m.isStatic);
  const fatesOf = (plan: WindowPlan) => plan.messages.map((f) => f.fate);
  const cases: Array<[string, (n: number) => Record<string, unknown>]> = [
    ['last-n', (n) => ({ limit: n % 8 })],
    ['sliding-window', (n) => ({ windowSize: n % 8 })],
    ['dynamic-context-window', (n) => ({ contextLength: n * 3, boundary: 'text' })],
    ['dynamic-context-window', (n) => ({ contextLength: n * 3, boundary: 'message' })],
  ];

  it('kept: stays whole, and the rest is planned as the strategy plans it alone, in what is left (property)', () => {
    fc.assert(
      fc.property(history, fc.nat({ max: 400 }), fc.nat({ max: cases.length - 1 }), (messages, n, k) => {
        const [id, paramsOf] = cases[k];
        const params: Record<string, unknown> = { ...paramsOf(n), keepStatic: true };
        const s = staticCount(messages);
        const plan = strategies.plan(id, skeletonOf(messages), params);
        expect(fatesOf(plan).slice(0, s).every((f) => f === 'kept')).toBe(true);
        const rest = messages.slice(s);
        const skeleton = skeletonOf(messages);
        const used = skeleton.messages.slice(0, s).reduce((a, m) => a + (plan.unit === 'content' ? m.tokens : m.renderedTokens), 0);
        const restParams = id === 'dynamic-context-window' ? { ...params, keepStatic: false, contextLength: Math.max(0, (params.contextLength as number) - used) } : { ...params, keepStatic: false };
        const alone = strategies.plan(id, { messages: skeleton.messages.slice(s), text: skeleton.text && { content: (i) => skeleton.text!.content(i + s), block: (i) => skeleton.text!.block(i + s), measure: t } }, restParams);
        expect(fatesOf(plan).slice(s)).toEqual(fatesOf(alone));
        // The rest's warnings, moved to their places: every message number in them too.
        const shift = (text: string) => text.replace(/\bmessage (\d+)/g, (_, i: string) => `message ${Number(i) + s}`);
        expect(plan.warnings.map((w) => [w.code, w.index, w.message])).toEqual(alone.warnings.map((w) => [w.code, w.index + s, shift(w.message)]));
        expect(plan.warnings.filter((w) => w.code === 'static-dropped')).toEqual([]);
        expect(rest.length + s).toBe(messages.length);
      }),
      { numRuns: runs },
    );
  });

  it('not kept: every static message the plan drops or cuts is warned about, and no other (property)', () => {
    fc.assert(
      fc.property(history, fc.nat({ max: 400 }), fc.nat({ max: cases.length - 1 }), (messages, n, k) => {
        const [id, paramsOf] = cases[k];
        const plan = strategies.plan(id, skeletonOf(messages), { ...paramsOf(n), keepStatic: false });
        const lost = fatesOf(plan)
          .map((f, i) => [f, i] as const)
          .filter(([f, i]) => i < staticCount(messages) && (f === 'dropped' || f === 'cut'))
          .map(([, i]) => i);
        expect(plan.warnings.filter((w) => w.code === 'static-dropped').map((w) => w.index)).toEqual(lost);
      }),
      { numRuns: runs },
    );
  });

  it('on by default where the framework keeps its system prompt apart (last-n, sliding window); off for the swarms history string', () => {
    const messages: Message[] = [{ role: 'System', content: 'You are careful.' }, ...Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }))];
    expect(strategies.plan('last-n', skeletonOf(messages), { limit: 3 }).messages.filter((f) => f.fate === 'kept').map((f) => f.index)).toEqual([0, 28, 29, 30]);
    expect(strategies.plan('sliding-window', skeletonOf(messages), { windowSize: 3 }).messages[0].fate).toBe('kept');
    const dynamic = strategies.plan('dynamic-context-window', skeletonOf(messages), { contextLength: 30 });
    expect(dynamic.messages[0].fate).toBe('dropped');
    expect(dynamic.warnings).toContainEqual(expect.objectContaining({ code: 'static-dropped', index: 0 }));
    expect(strategies.get('dynamic-context-window')!.params.find((p) => p.key === 'keepStatic')).toMatchObject({ kind: 'boolean', default: false });
  });

  it('a summary a compaction left at the start is static context for the next plan', () => {
    const messages: Message[] = [{ role: 'System', content: 'You are careful.' }, ...Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i} with some words` }))];
    const plan = strategies.plan('summarizing', skeletonOf(messages), { force: true, keepRecentMessages: 4 });
    const compacted = applyPlan(messages, plan, { summaries: ['The user and the assistant went through 26 turns.'] });
    expect(compacted[1].content).toBe('The user and the assistant went through 26 turns.');
    const next = strategies.plan('sliding-window', skeletonOf(compacted), { windowSize: 2 });
    expect(next.messages.slice(0, 2).map((f) => f.fate)).toEqual(['kept', 'kept']);
  });
});
