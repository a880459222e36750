import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codecById } from '../../src/core/formats/registry.js';
import { displayText } from '../../src/core/formats/model.js';
import { serializeDocument } from '../../src/core/formats/document-file.js';
import { edgeString } from '../support/edge-arbitraries.js';

/**
 * Histories written as Aider 0.86 writes them (aider/io.py: `user_input`, `ai_output`, `tool_output`,
 * `append_chat_history`; base_coder.py: the tokens report), from texts that lean on the edges, read back.
 */

/** Python's `str.splitlines()` separators, and its `str.isspace()` characters. */
// eslint-disable-next-line no-control-regex -- Python breaks lines at the file, group and record separators too
const PY_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
const PY_SPACE = '[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const pySplitlines = (s: string) => {
  const parts = s.split(PY_BREAK);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
};
const pyRstrip = (s: string) => s.replace(new RegExp(`${PY_SPACE}+$`, 'u'), '');
const pyStrip = (s: string) => pyRstrip(s).replace(new RegExp(`^${PY_SPACE}+`, 'u'), '');
/** Python's round(): halves to the even neighbour. */
const pyRound = (x: number) => {
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
};
/** base_coder.py's `format_tokens`. */
const formatTokens = (n: number) => (n < 1000 ? `${n}` : n < 10000 ? `${(n / 1000).toFixed(1)}k` : `${pyRound(n / 1000)}k`);
const readBack = (s: string) => (s.endsWith('k') ? Math.round(Number(s.slice(0, -1)) * 1000) : Number(s));

/** `append_chat_history(text, linebreak, blockquote)`: what it adds to the file. */
function appended(text: string, linebreak = false, blockquote = false): string {
  if (blockquote) text = `> ${pyStrip(text)}`;
  if (linebreak) text = `${pyRstrip(text)}  \n`;
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** A text Python can write (no lone surrogates); for replies, none of the "\r" Python's reader would take as a break. */
const writable = (s: string) => s.replace(/[\ud800-\udfff]/g, (c, i, all) => (/[\ud800-\udbff][\udc00-\udfff]/.test(all.slice(i - 1, i + 1)) || /[\ud800-\udbff][\udc00-\udfff]/.test(all.slice(i, i + 2)) ? c : 'x'));

interface Exchange {
  prompt: string;
  reply: string;
  tokens?: { sent: number; write: number; hit: number; received: number };
  applied: boolean;
}

const figure = fc.oneof(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 10_000, max: 2_000_000 }), fc.constantFrom(0, 950, 999, 1000, 1049, 1050, 9949, 9950, 9999, 10_000, 12_500, 13_500, 1_234_567));
const exchange: fc.Arbitrary<Exchange> = fc.record({
  prompt: edgeString.map(writable).filter((p) => p !== '<blank>'),
  // A reply whose line reads as a prompt, a notice or a header reads so for Aider too: such lines are left out.
  reply: fc.tuple(fc.constantFrom('', '\u3000', '\ufeff', '\xa0 ', '\t\x1f'), edgeString, fc.constantFrom('', '\u3000', '\ufeff', '\x85', ' \u2029')).map(([lead, r, trail]) =>
    pyStrip(writable(lead + r + trail).replace(/\r/g, ''))
      .split('\n')
      .map((l) => (/^\\*(?:####(?: |$)|>(?: |$)|# aider chat started at|<!-- conversation-inspector)/.test(l) ? `x${l}` : l))
      .join('\n'),
  ),
  tokens: fc.option(fc.record({ sent: figure, write: fc.oneof(fc.constant(0), figure), hit: fc.oneof(fc.constant(0), figure), received: figure }), { nil: undefined }),
  applied: fc.boolean(),
});
const session = fc.record({ model: fc.constantFrom('gpt-4o', 'anthropic/claude-sonnet-4-20250514', 'openrouter/deepseek/deepseek-chat'), main: fc.boolean(), exchanges: fc.array(exchange, { minLength: 1, maxLength: 4 }) });

/** The file Aider writes for these sessions, and the records read from it should be. */
function history(sessions: Array<(typeof session extends fc.Arbitrary<infer T> ? T : never)>) {
  let text = '';
  const expected: Array<Array<{ role: string; text: string; usage?: object }>> = [];
  sessions.forEach((s, k) => {
    text += appended(`\n# aider chat started at 2025-0${(k % 9) + 1}-14 09:12:07\n\n`);
    const notice = `${s.main ? 'Main model' : 'Model'}: ${s.model} with diff edit format`;
    text += appended(notice, true, true);
    const records: Array<{ role: string; text: string; usage?: object }> = [{ role: 'tool', text: notice }];
    for (const x of s.exchanges) {
      const lines = x.prompt ? pySplitlines(x.prompt) : ['<blank>'];
      text += appended(`\n#### ${lines.join('  \n#### ')}`, true);
      // The last line's trailing white space goes with `rstrip`, and a prompt of nothing else is empty.
      const typed = x.prompt ? [...lines.slice(0, -1), pyRstrip(lines[lines.length - 1])].join('\n') : '';
      records.push({ role: 'user', text: typed });
      const reply = pyStrip(x.reply);
      text += appended(`\n${reply}\n\n`);
      if (reply !== '') records.push({ role: 'assistant', text: reply });
      const notices: string[] = [];
      let usage: object | undefined;
      if (x.tokens) {
        const t = x.tokens;
        let report = `Tokens: ${formatTokens(t.sent)} sent`;
        if (t.write) report += `, ${formatTokens(t.write)} cache write`;
        if (t.hit) report += `, ${formatTokens(t.hit)} cache hit`;
        report += `, ${formatTokens(t.received)} received. Cost: $0.01 message, $0.02 session.`;
        notices.push(report);
        const [sent, write, hit, received] = [t.sent, t.write, t.hit, t.received].map((n) => readBack(formatTokens(n)));
        usage = { input: Math.max(0, sent - hit - write), output: received, cacheRead: hit, cacheWrite: write, model: s.model };
      }
      if (x.applied) notices.push('Applied edit to src/app.py');
      for (const n of notices) text += appended(n, true, true);
      if (notices.length) records.push({ role: 'tool', text: notices.join('\n') });
      // The report is the reply's; with no reply before it, the notice's own.
      if (usage) (reply !== '' ? records[records.length - 1 - (notices.length ? 1 : 0)] : records[records.length - 1]).usage = usage;
    }
    expected.push(records);
  });
  return { text, expected };
}

describe('Aider chat history: reading histories as Aider writes them (property)', () => {
  const codec = codecById('aider-chat')!;
  const read = (text: string) => {
    const doc = codec.parse(text, '.aider.chat.history.md');
    return {
      doc,
      got: doc.conversations.map((c) =>
        c.records.map((r) => {
          const v = codec.view(r);
          return { role: v.role, text: displayText(v), ...(v.usage ? { usage: v.usage } : {}) };
        }),
      ),
    };
  };

  it('prompts, replies, notices and each reply’s reported tokens, with LF or CRLF line breaks; written back byte for byte', () => {
    fc.assert(
      fc.property(fc.array(session, { minLength: 1, maxLength: 3 }), (sessions) => {
        const { text, expected } = history(sessions);
        for (const file of [text, text.replace(/\n/g, '\r\n')]) {
          const { doc, got } = read(file);
          expect(got).toEqual(expected);
          expect(serializeDocument(codec, doc, doc.conversations.map((c) => c.records))).toBe(file);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a prompt whose last line is white space alone is read as Aider wrote it: without that line’s spaces', () => {
    const text = `\n# aider chat started at 2025-03-14 09:12:07\n\n#### first  \n####  \n\nok\n\n####  \n\nok\n\n`;
    expect(read(text).got.map((c) => c.map((r) => r.text))).toEqual([['first\n', 'ok', '', 'ok']]);
  });
});
