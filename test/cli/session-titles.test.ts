import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutToWidth, displayWidth } from '../../src/cli/text-width.js';
import { ROOT, tempDir } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const graphemes = (s: string) => [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(s)].map((g) => g.index);
const LONE_HALF = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A Claude Code session of one prompt and its answer, in its project's folder. */
function session(dir: string, n: number, prompt: string): void {
  const folder = join(dir, '-home-dev-shop');
  mkdirSync(folder, { recursive: true });
  const id = `0000000${n}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`;
  const base = { userType: 'external', cwd: '/home/dev/shop', sessionId: id, version: '2.1.81', isSidechain: false };
  const lines = [
    { ...base, parentUuid: null, uuid: `${id}-1`, type: 'user', timestamp: `2026-03-0${n}T10:00:00.000Z`, message: { role: 'user', content: prompt } },
    { ...base, parentUuid: `${id}-1`, uuid: `${id}-2`, type: 'assistant', timestamp: `2026-03-0${n}T10:01:00.000Z`, requestId: `req_${n}`, message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } } },
  ];
  writeFileSync(join(folder, `${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

describe('sessions DIR: the TITLE column', () => {
  it('cuts a long title with "…" after a whole word, never inside an astral character; CJK and emoji keep the columns after them in line (the real bin)', () => {
    const dir = tempDir();
    // 59 characters of words, then 𝔘: a cut at 60 UTF-16 units parts 𝔘 in two, and a cut at 60 characters ends mid-word.
    const astral = 'Fix the checkout total rounding when the cart holds coupons 𝔘 and gift cards together';
    expect(astral.indexOf('𝔘')).toBe(60);
    const long = 'Why is the admin login slow on Mondays after the weekly reindexing job has run';
    const cjk = '查看 ubpb 失败原因 这是一个很长的标题用于测试中文的切分是否在词的边界上进行而不是在中间截断的情况';
    const emoji = 'Ship it 👩‍💻 now';
    [astral, long, cjk, emoji].forEach((t, k) => session(dir, k + 1, t));
    const r = spawnSync(process.execPath, [BIN, 'sessions', dir], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: tempDir() } });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const header = lines[0];
    const titleAt = header.indexOf('TITLE');
    const messagesEnd = header.indexOf('MESSAGES') + 'MESSAGES'.length;
    const titles = new Map<string, string>();
    for (const line of lines.slice(1)) {
      expect(line).not.toMatch(LONE_HALF);
      const cell = /^(.*?)\s{2,}(\d+)/.exec(line.slice(titleAt))!;
      const title = cell[1];
      expect(displayWidth(title)).toBeLessThanOrEqual(60);
      // The message count ends under the header's MESSAGES, whatever the title holds (CJK, emoji, 𝔘).
      expect(titleAt + displayWidth(cell[0])).toBe(messagesEnd);
      titles.set([astral, long, cjk, emoji].find((t) => t.startsWith(title.replace(/…$/, '')))!, title);
    }
    // Cut after a whole word (its prefix, then "…"), not at the 60th unit.
    expect(titles.get(astral)).toBe('Fix the checkout total rounding when the cart holds coupons…');
    expect(titles.get(long)).toBe('Why is the admin login slow on Mondays after the weekly…');
    expect(titles.get(cjk)!.endsWith('…')).toBe(true);
    expect(displayWidth(titles.get(cjk)!)).toBeGreaterThan(40);
    expect(titles.get(emoji)).toBe(emoji);
  });
});

describe('cutToWidth', () => {
  const spaces = fc.constantFrom(' ', '\t', '\r\n', '\u00a0', '\u2028', '\u3000');
  // Besides joined characters, scripts whose every character stands alone: measured without ICU, as ICU would.
  const alone = fc.constantFrom('рф', 'ΑΒΓ δ', 'กำลัง', '한국어', '\u1100\u1161\u11a8', '\u0600١٢', '👍🏽', '1\ufe0f\u20e3', '🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}', '🚀', '│─┼', 'ｱｲ', 'ສຳ');
  // Characters ICU joins to what follows or precedes them though no mark or format class names them.
  const joinedUnmarked = fc.constantFrom('\u{1193f}x', '\u0d4eക', 'ｶﾞ', '\u{11f02}a', '\u{111c2}a', '가\u{16d63}');
  const piece = fc.oneof(edgeString, spaces, fc.string({ unit: 'grapheme' }), alone, joinedUnmarked, fc.constantFrom('字', '失败原因', '👩‍💻', '𝔘', 'é', 'e\u0301', '🇫🇷', 'x'.repeat(30)));
  const text = fc.array(piece, { maxLength: 14 }).map((p) => p.join(''));

  it("measures a text as ICU's graphemes of it add up, whether or not it is segmented by ICU (property)", () => {
    fc.assert(
      fc.property(text, (t) => {
        const flat = t.replace(/\s+/g, ' ');
        const byIcu = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(flat)].reduce((n, g) => n + displayWidth(g.segment), 0);
        expect(displayWidth(flat)).toBe(byIcu);
      }),
      { numRuns: 600 },
    );
  });

  it('measures every code point ICU joins to a letter or a syllable as it measures it in a text that ICU segments', () => {
    const icu = new Intl.Segmenter('en', { granularity: 'grapheme' });
    // Unassigned, private and the big scripts of characters that stand alone: nothing there joins (the jamo do).
    const alone = /[\p{Cn}\p{Co}\p{Cs}\p{Script=Han}\p{Script=Tangut}\p{Script=Yi}\p{Script=Egyptian_Hieroglyphs}\p{Script=Cuneiform}\uac00-\ud7a3]/u;
    const wrong: string[] = [];
    let joined = 0;
    for (let c = 0; c < 0x110000; c++) {
      const ch = String.fromCodePoint(c);
      if (alone.test(ch)) continue;
      for (const t of [`${ch}a`, `a${ch}`, `가${ch}`]) {
        if ([...icu.segment(t)].length !== 1) continue;
        joined++;
        // "é" written as e and its accent has any text measured by ICU's graphemes: t's own measure must agree.
        if (displayWidth(`${t}e\u0301`) !== displayWidth(t) + 1) wrong.push(`U+${c.toString(16)} in ${JSON.stringify(t)}`);
        break;
      }
    }
    expect(joined).toBeGreaterThan(2000);
    expect(wrong.slice(0, 20)).toEqual([]);
  });

  it('fits the columns, keeps what fits whole, and otherwise ends with "…" after whole characters of the text (property)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 70 }), (t, max) => {
        const flat = t.replace(/\s+/g, ' ').trim();
        const out = cutToWidth(t, max);
        // No half of an astral character but those the text has alone already.
        if (!LONE_HALF.test(t)) expect(out).not.toMatch(LONE_HALF);
        if (displayWidth(flat) <= max) {
          expect(out).toBe(flat);
          return;
        }
        expect(displayWidth(out)).toBeLessThanOrEqual(max);
        expect(out.endsWith('…')).toBe(true);
        const kept = out.slice(0, -1);
        expect(flat.startsWith(kept)).toBe(true);
        // Never inside a grapheme: the cut is at one of the text's grapheme boundaries.
        expect(kept.length === 0 || graphemes(flat).includes(kept.length) || kept.length === flat.length).toBe(true);
      }),
      { numRuns: 600 },
    );
  });

  it('cuts a long text (a title of thousands of characters) by its head alone, as it would the whole (property)', () => {
    fc.assert(
      fc.property(text.filter((t) => t.trim() !== ''), fc.integer({ min: 2, max: 70 }), (t, max) => {
        const long = t.repeat(Math.ceil(20_000 / t.length));
        const flat = long.replace(/\s+/g, ' ').trim();
        const out = cutToWidth(long, max);
        if (!LONE_HALF.test(long)) expect(out).not.toMatch(LONE_HALF);
        if (displayWidth(flat) <= max) return expect(out).toBe(flat);
        expect(displayWidth(out)).toBeLessThanOrEqual(max);
        expect(out.endsWith('…')).toBe(true);
        expect(flat.startsWith(out.slice(0, -1))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
