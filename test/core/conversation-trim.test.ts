import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Conversation, codePointBoundaries, renderHistory } from '../../src/core/index.js';
import { fixtureCopy, read, tempDir } from '../helpers.js';

const make = (options: ConstructorParameters<typeof Conversation>[0] = {}) => new Conversation({ conversationsDir: tempDir(), ...options });

function history(n: number): Conversation {
  const c = make({ contextLength: 50, timeEnabled: false });
  for (let i = 0; i < n; i++) c.add(i % 2 ? 'assistant' : 'user', `Message number ${i} says something moderately long about topic ${i}. 😀`);
  return c;
}

describe('dynamicContextWindow', () => {
  it('trims the rendered history from the front to the longest suffix that fits', () => {
    const c = history(20);
    const full = renderHistory(c.conversationHistory);
    const out = c.returnHistoryAsString();
    expect(full.endsWith(out)).toBe(true);
    expect(c.tokenizer.count(out)).toBeLessThanOrEqual(50);
    const start = full.length - out.length;
    const bounds = codePointBoundaries(full);
    expect(bounds).toContain(start);
    expect(c.tokenizer.count(full.slice(bounds[bounds.indexOf(start) - 1]))).toBeGreaterThan(50);
  });

  it('returns the whole history when it fits, and when the option is off', () => {
    const c = history(2);
    c.contextLength = 10_000;
    expect(c.returnHistoryAsString()).toBe(renderHistory(c.conversationHistory));
    const off = history(20);
    off.dynamicContextWindow = false;
    expect(off.returnHistoryAsString()).toBe(renderHistory(off.conversationHistory));
  });

  it('dynamicAutoChunking trims whatever dynamicContextWindow says', () => {
    const c = history(20);
    c.dynamicContextWindow = false;
    expect(c.tokenizer.count(c.dynamicAutoChunking())).toBeLessThanOrEqual(50);
    expect(renderHistory(c.conversationHistory).endsWith(c.dynamicAutoChunking())).toBe(true);
  });

  it('never starts inside a surrogate pair', () => {
    const c = make({ contextLength: 3 });
    c.add('user', '😀😀😀😀😀😀😀😀');
    const out = c.returnHistoryAsString();
    expect(out.charCodeAt(0) >= 0xdc00 && out.charCodeAt(0) <= 0xdfff).toBe(false);
  });
});

describe('truncateMemoryWithTokenizer', () => {
  /** A conversation whose budget leaves exactly `prefix` worth of tokens for the crossing message. */
  function crossing(text: string, prefix: string, opts: { tokenCount?: boolean } = {}) {
    const c = make({ tokenCount: opts.tokenCount });
    c.add('System', 'Keep me.');
    c.add('user', text);
    c.add('assistant', 'Dropped later.');
    c.contextLength = c.tokenizer.count('Keep me.') + c.tokenizer.count(prefix);
    c.truncateMemoryWithTokenizer();
    return c;
  }

  it('keeps everything that fits', () => {
    const c = history(3);
    c.contextLength = 10_000;
    const before = structuredClone(c.conversationHistory);
    c.truncateMemoryWithTokenizer();
    expect(c.conversationHistory).toEqual(before);
  });

  it('cuts at a sentence end in the last quarter of the fitting prefix and drops later messages', () => {
    const c = crossing('Alpha beta gamma delta epsilon. Zeta eta theta iota.', 'Alpha beta gamma delta epsilon. Zeta');
    expect(c.conversationHistory.map((m) => m.content)).toEqual(['Keep me.', 'Alpha beta gamma delta epsilon.']);
  });

  it.each([
    ['Does the budget hold for longer questions? Zeta eta theta.', 'Does the budget hold for longer questions? Zeta', 'Does the budget hold for longer questions?'],
    ['Wow that was a truly great answer! Zeta eta theta.', 'Wow that was a truly great answer! Zeta', 'Wow that was a truly great answer!'],
  ])('a "?" or "!" also ends a sentence: %s', (text, prefix, expected) => {
    expect(crossing(text, prefix).conversationHistory[1].content).toBe(expected);
  });

  it('cuts at a line break in the last quarter, dropping the break', () => {
    const c = crossing('Intro words here and more\nNext line follows here', 'Intro words here and more\nNext');
    expect(c.conversationHistory[1].content).toBe('Intro words here and more');
  });

  it('falls back to the latest white space (which may sit right after the prefix)', () => {
    const c = crossing('Alpha beta gamma. Delta epsilon zeta eta theta', 'Alpha beta gamma. Delta');
    expect(c.conversationHistory[1].content).toBe('Alpha beta gamma. Delta');
  });

  it('falls back to the raw prefix when there is no white space', () => {
    const text = 'abcdefghijklmnopqrstuvwxyz'.repeat(4);
    const c = crossing(text, 'abcdefghijklmnop');
    const kept = c.conversationHistory[1].content as string;
    expect(text.startsWith(kept)).toBe(true);
    expect(c.tokenizer.count(kept)).toBeLessThanOrEqual(c.tokenizer.count('abcdefghijklmnop'));
    expect(kept.length).toBeGreaterThanOrEqual('abcdefghijklmnop'.length);
  });

  it('drops a crossing message whose cut leaves only white space', () => {
    const c = crossing('Supercalifragilistic words', '');
    expect(c.conversationHistory.map((m) => m.content)).toEqual(['Keep me.']);
  });

  it('drops a crossing message whose content is not a string', () => {
    const c = make();
    c.add('user', 'short');
    c.add('tool', { rows: Array.from({ length: 50 }, (_, i) => i) });
    c.contextLength = c.tokenizer.count('short') + 5;
    c.truncateMemoryWithTokenizer();
    expect(c.conversationHistory.map((m) => m.role)).toEqual(['user']);
  });

  it('refreshes the cut message token_count', () => {
    const c = crossing('Alpha beta gamma delta epsilon. Zeta eta theta iota.', 'Alpha beta gamma delta epsilon. Zeta', { tokenCount: true });
    expect(c.conversationHistory[1].token_count).toBe(c.tokenizer.count('Alpha beta gamma delta epsilon.'));
  });

  it('recounts instead of trusting stored token_count', () => {
    const c = make({ contextLength: 10 });
    c.batchAdd([
      { role: 'user', content: 'one two three', token_count: 1000 },
      { role: 'user', content: 'four five', token_count: 0 },
    ]);
    c.truncateMemoryWithTokenizer();
    expect(c.conversationHistory).toHaveLength(2);
  });
});

describe('compact', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the static context and adds one summary', () => {
    const c = make({ systemPrompt: 'S', rules: 'R', customRulesPrompt: 'C', user: 'Op', timeEnabled: true });
    c.add('user', 'lots of chatter');
    c.add('assistant', 'more chatter');
    c.compact('User asked about X. Assistant explained X.');
    expect(c.conversationHistory.map((m) => [m.role, m.content])).toEqual([
      ['System', 'S'],
      ['Op', 'R'],
      ['Op', 'C'],
      ['System', 'User asked about X. Assistant explained X.'],
    ]);
    expect(c.conversationHistory.every((m) => typeof m.timestamp === 'string')).toBe(true);
    c.compact('second', 'assistant');
    expect(c.conversationHistory.at(-1)).toMatchObject({ role: 'assistant', content: 'second' });
  });

  it('archives MEMORY.md, re-seeds it, and logs the summary', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T09:15:02.123Z'));
    const path = fixtureCopy('memory/MEMORY.md');
    const before = read(path);
    const c = make({ memoryMdPath: path, name: 'demo-md' });
    c.compact('Summary one.');
    const archive = join(path, '..', 'archive');
    expect(readdirSync(archive)).toEqual(['history_2026-11-30_09-15-02.md']);
    expect(read(join(archive, 'history_2026-11-30_09-15-02.md'))).toBe(before);
    expect(read(path)).toBe(
      '# Agent Memory\n\n**Conversation:** demo-md\n**Created:** 2026-11-30T09:15:02.123Z\n\n---\n\n## Interaction Log\n\n' +
        '### System — 2026-11-30T09:15:02.123Z\n\nSummary one.\n\n---\n\n',
    );
    c.compact('Summary two.');
    expect(readdirSync(archive).sort()).toEqual(['history_2026-11-30_09-15-02-2.md', 'history_2026-11-30_09-15-02.md']);
  });

  it('keeps the static messages already in the history as they are', () => {
    const c = make({ systemPrompt: 'S', timeEnabled: true, messageIdOn: true });
    const seeded = c.conversationHistory[0];
    c.add('user', 'x');
    c.compact('sum');
    expect(c.conversationHistory[0]).toBe(seeded);
    expect(c.conversationHistory.map((m) => m.content)).toEqual(['S', 'sum']);
  });

  it('rebuilds the static context from the options when the history does not start with it', () => {
    const c = make({ systemPrompt: 'S' });
    c.clear();
    c.add('user', 'x');
    c.compact('sum');
    expect(c.conversationHistory).toEqual([
      { role: 'System', content: 'S' },
      { role: 'System', content: 'sum' },
    ]);
  });

  it('autosaves the compacted history', () => {
    const c = make({ name: 'cmp', autosave: true, systemPrompt: 'S' });
    c.add('user', 'x');
    c.compact('sum');
    expect(JSON.parse(read(c.saveFilepath))).toEqual([
      { role: 'System', content: 'S' },
      { role: 'System', content: 'sum' },
    ]);
  });

  it('does not write a memory archive when there is no memory file configured', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'x'), '');
    make({ conversationsDir: dir }).compact('s');
    expect(readdirSync(dir)).toEqual(['x']);
  });
});
