import { diffLines } from 'diff';
import fc from 'fast-check';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { displayText } from '../../src/core/formats/model.js';
import { candidates, codecById } from '../../src/core/formats/registry.js';
import { isConversationFileName, walkConversationTree } from '../../src/core/storage/list-directory.js';
import { FIXTURES, tempDir } from '../helpers.js';
import { REALFILES } from '../support/realfiles.js';
import { addUp, costOf } from '../../src/core/usage.js';
import { sessionModel } from '../../src/core/models.js';
import { resolveEncoding } from '../../src/core/tokenizer/encoding.js';
import { edgeString } from '../support/edge-arbitraries.js';

const CHAT = '.aider.chat.history.md';
const INPUT = '.aider.input.history';
const chatText = readFileSync(join(FIXTURES, 'formats', 'aider', CHAT), 'utf8');
// Not among the format fixtures: a list of prompts with no answers is no valid conversation for most targets.
const inputText = readFileSync(join(FIXTURES, 'aider', INPUT), 'utf8');

const read = (text: string, name = CHAT) => parseDocumentText(text, name);
const texts = (text: string, name = CHAT) => {
  const { codec, doc } = read(text, name);
  return doc.conversations.map((c) => c.records.map((r) => [codec.view(r).role, displayText(codec.view(r))]));
};
const unchanged = (text: string, name = CHAT) => {
  // An empty file is refused before any codec reads it: the codec is asked itself.
  const codec = codecById(name === CHAT ? 'aider-chat' : 'aider-input')!;
  const doc = codec.parse(text, name);
  return serializeDocument(codec, doc, doc.conversations.map((c) => c.records));
};

/** The fixture as Aider writes it on Windows, without its final line break, and with both. */
const VARIANTS = {
  lf: chatText,
  crlf: chatText.replace(/\n/g, '\r\n'),
  'no final newline': chatText.replace(/\n$/, ''),
  'crlf, no final newline': chatText.replace(/\n/g, '\r\n').replace(/\r\n$/, ''),
};

if (!REALFILES) console.log('a real Aider history skipped: no shared realfiles folder beside the checkout (set REALFILES to one)');

describe('Aider chat history: reading', () => {
  it('each "# aider chat started at" a conversation, prompts, replies and Aider’s own notices', () => {
    const { codec, doc } = read(chatText);
    expect(codec.id).toBe('aider-chat');
    expect(doc.conversations.map((c) => c.title)).toEqual(['aider chat started at 2025-03-14 09:12:07', 'aider chat started at 2025-03-15 14:30:55']);
    const [first, second] = texts(chatText);
    expect(first.map(([role]) => role)).toEqual(['tool', 'user', 'tool', 'user', 'assistant', 'tool', 'user', 'tool', 'user', 'tool', 'user', 'assistant', 'tool']);
    expect(second.map(([role]) => role)).toEqual(['tool', 'user', 'assistant', 'user']);
    // A prompt of several lines is one message, without the `#### ` and the hard breaks.
    expect(first[3][1]).toBe('Add a `farewell(name)` function next to `greet`.\nIt should return "Goodbye, <name>!" and have a docstring.');
    expect(second[1][1]).toBe('Write a short README section for the greet module.\n\nKeep it to two sentences.');
    // The reply keeps its code blocks and its SEARCH/REPLACE block (`>>>>>>> REPLACE` is no notice).
    expect(first[4][1]).toContain('src/greet.py\n```python\n<<<<<<< SEARCH\ndef greet(name):');
    expect(first[4][1]).toContain('>>>>>>> REPLACE\n```\n\nTry it with:');
    expect(first[4][1].endsWith("print(farewell('Ada'))\"\n```")).toBe(true);
    // Notices: the startup lines, the cost line with what followed it, a command's output on lines of its own.
    expect(first[0][1].split('\n')).toHaveLength(6);
    expect(first[5][1].split('\n')[0]).toBe('Tokens: 4.2k sent, 187 received. Cost: $0.02 message, $0.02 session.');
    expect(first[9][1]).toBe('3f9c2ab feat: Add farewell function\n9d1e0f4 Initial commit');
    // Blank lines inside a reply are its own; those after it are not.
    expect(first[11][1]).toBe('It returns `"Hello, !"`.\n\n\n\nIf you want a fallback for empty names, say so and I\'ll add one.');
    expect(second[2][1]).toBe('## greet\n\n`greet(name)` says hello and `farewell(name)` says goodbye.\nBoth take one string and return a new one.');
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(views.filter((v) => v.meta).every((v) => v.role === 'tool' && v.normalRole === 'other')).toBe(true);
    expect(views.filter((v) => !v.meta).map((v) => v.normalRole)).toEqual(['user', 'user', 'assistant', 'user', 'user', 'user', 'assistant']);
  });

  it('the model the opening notice names is the session’s (its tokens estimated with it; a provider route counts as the model it ends in)', () => {
    const { codec, doc } = read(chatText);
    expect(sessionModel(doc.conversations[0].records.map((r) => codec.view(r)))).toBe('anthropic/claude-3-7-sonnet-20250219');
    const plain = chatText.replace('> Main model: anthropic/claude-3-7-sonnet-20250219 with diff edit format, infinite output  ', '> Model: openrouter/openai/gpt-4o-mini with diff edit format  ');
    const again = read(plain);
    const model = sessionModel(again.doc.conversations[0].records.map((r) => again.codec.view(r)))!;
    expect(model).toBe('openrouter/openai/gpt-4o-mini');
    expect(resolveEncoding(model)).toEqual({ model, encoding: 'o200k_base', approximate: false });
    expect(resolveEncoding('azure/gpt-4')).toMatchObject({ encoding: 'cl100k_base', approximate: false });
    // A notice without one names none; the text is unchanged.
    expect(codec.view(doc.conversations[0].records[2]).model).toBeUndefined();
    expect(unchanged(plain)).toBe(plain);
  });

  it('the tokens Aider reports after a reply are that reply’s usage, by the session’s model, priced as Aider priced them', () => {
    const text = [
      '# aider chat started at 2025-12-03 14:43:45',
      '',
      '> Model: openrouter/openai/gpt-4o-mini with diff edit format  ',
      '',
      '#### make a file  ',
      '',
      'Here it is.',
      '',
      '> Tokens: 2.4k sent, 104 received. Cost: $0.00042 message, $0.00042 session.  ',
      '> Applied edit to a.json  ',
      '',
      '#### and another  ',
      '',
      'Done.',
      '',
      '> Tokens: 12k sent, 1.1k cache write, 9.8k cache hit, 1,234 received.  ',
      '> Cost: $0.0096 message, $0.01 session.  ',
      '',
      '#### no reply yet  ',
      '',
      '> Tokens: 900 sent, 0 received.  ',
      '',
    ].join('\n');
    const { codec, doc } = read(text);
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    const used = views.map((v, i) => [i, v.normalRole, v.usage] as const).filter(([, , u]) => u);
    const model = 'openrouter/openai/gpt-4o-mini';
    expect(used).toEqual([
      [2, 'assistant', { input: 2400, output: 104, cacheRead: 0, cacheWrite: 0, model }],
      // "Sent" holds the cache's reads and writes: what is left of it is the input not cached.
      [5, 'assistant', { input: 1100, output: 1234, cacheRead: 9800, cacheWrite: 1100, model }],
      // No reply before it (a prompt cut short): the notice itself carries it.
      [8, 'other', { input: 900, output: 0, cacheRead: 0, cacheWrite: 0, model }],
    ]);
    // A notice with no figures, or figures not as Aider writes them, reports nothing; one whose reply carries them neither.
    expect([views[0].usage, views[3].usage]).toEqual([undefined, undefined]);
    expect(read(text.replace('2.4k sent', '2.4k given')).doc.conversations[0].records.map((r) => codec.view(r))[2].usage).toBeUndefined();
    expect(unchanged(text)).toBe(text);
  });

  it.runIf(REALFILES)('the replies’ figures, priced here, cost what Aider printed for them (a real history)', () => {
    const file = join(REALFILES!, 'aider', 'abdulalkawasmeh', CHAT);
    const text = readFileSync(file, 'utf8');
    const { codec, doc } = read(text);
    const calls = doc.conversations.flatMap((c) => c.records.map((r) => codec.view(r)).filter((v) => v.usage));
    const printed = [...text.matchAll(/Tokens: .*? Cost: \$([\d.]+) message, /g)].map((m) => Number(m[1]));
    expect(calls.length).toBe([...text.matchAll(/^> Tokens: /gm)].length);
    expect(printed.length).toBe(calls.length);
    const ours = calls.map((v) => costOf(addUp([v.usage!])!).usd);
    // Aider prints its counts rounded to a tenth of a thousand, its costs to two significant digits.
    ours.forEach((usd, k) => expect(Math.abs(usd - printed[k]) / printed[k]).toBeLessThan(0.1));
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(Math.abs(sum(ours) - sum(printed)) / sum(printed)).toBeLessThan(0.03);
  });

  it('reads the same with Windows line breaks and without a final one', () => {
    for (const [name, text] of Object.entries(VARIANTS)) expect(texts(text), name).toEqual(texts(chatText));
  });

  it('writes an unchanged file back byte for byte (LF, CRLF, no final newline)', () => {
    for (const [name, text] of Object.entries(VARIANTS)) expect(unchanged(text), name).toBe(text);
    expect(unchanged('')).toBe('');
    expect(unchanged('\n# aider chat started at 2025-01-01 00:00:00\n\n')).toBe('\n# aider chat started at 2025-01-01 00:00:00\n\n');
  });

  it('an edited prompt rewrites its own lines only', () => {
    const { codec, doc } = read(chatText);
    const records = doc.conversations.map((c) => c.records.slice());
    records[0][3] = codec.withText(records[0][3], 'Add `farewell`.\nAnd a test.');
    const out = serializeDocument(codec, doc, records);
    const removed = diffLines(chatText, out).filter((p) => p.removed).map((p) => p.value);
    const added = diffLines(chatText, out).filter((p) => p.added).map((p) => p.value);
    expect(removed).toEqual(['#### Add a `farewell(name)` function next to `greet`.  \n#### It should return "Goodbye, <name>!" and have a docstring.  \n']);
    expect(added).toEqual(['#### Add `farewell`.  \n#### And a test.  \n']);
  });

  it('the last message of a file without a final line break stays without one', () => {
    const text = VARIANTS['crlf, no final newline'];
    const { codec, doc } = read(text);
    const records = doc.conversations.map((c) => c.records.slice());
    records[1][3] = codec.withText(records[1][3], '/quit');
    expect(serializeDocument(codec, doc, records)).toBe(text.replace(/#### \/exit {2}$/, '#### /quit  '));
  });
});

describe('Aider chat history: an edit with edge-biased text (property)', () => {
  for (const [variant, text] of Object.entries(VARIANTS)) {
    it(variant, () => {
      const { codec, doc } = read(text);
      const at = doc.conversations.flatMap((c, ci) => c.records.map((_, ri) => [ci, ri] as const));
      // Where each record's own text is in the file: the records' texts follow each other.
      let pos = 0;
      const starts = at.map(([ci, ri]) => (pos = text.indexOf(codec.rawText(doc, ci, doc.conversations[ci].records[ri])!, pos)));
      fc.assert(
        fc.property(fc.nat(at.length - 1), edgeString, (k, typed) => {
          const [ci, ri] = at[k];
          const record = doc.conversations[ci].records[ri];
          const edited = codec.withText(record, typed);
          // Aider's Markdown holds any text: what lines cannot hold is escaped, never refused.
          expect(edited).toBeDefined();
          const records = doc.conversations.map((c, i) => (i === ci ? c.records.map((r, j) => (j === ri ? edited : r)) : c.records));
          const out = serializeDocument(codec, doc, records);
          const back = read(out);
          expect(back.codec.id).toBe('aider-chat');
          expect(back.doc.conversations.map((c) => c.records.length)).toEqual(doc.conversations.map((c) => c.records.length));
          // The typed text, exactly; every other message as it was.
          expect(displayText(codec.view(back.doc.conversations[ci].records[ri]))).toBe(typed);
          expect(codec.view(back.doc.conversations[ci].records[ri]).role).toBe(codec.view(record).role);
          back.doc.conversations.forEach((c, i) => c.records.forEach((r, j) => (i === ci && j === ri ? undefined : expect(r).toEqual(doc.conversations[i].records[j]))));
          // The bytes that changed all lie inside the record's own text in the file.
          const raw = codec.rawText(doc, ci, record)!;
          const start = starts[k];
          expect(out.slice(0, start)).toBe(text.slice(0, start));
          expect(out.endsWith(text.slice(start + raw.length))).toBe(true);
          // What Aider's own reader goes by: a prompt's lines all start `#### `, a notice's `> `, a reply's neither.
          const region = out.slice(start, out.length - (text.length - start - raw.length)).split(/\r?\n/).filter((l) => l.trim() !== '');
          const role = codec.view(record).role;
          if (role === 'user') expect(region.every((l) => l.startsWith('#### '))).toBe(true);
          if (role === 'tool') expect(region.every((l) => l.startsWith('> '))).toBe(true);
          if (role === 'assistant') expect(region.some((l) => l.startsWith('#### ') || l.startsWith('> '))).toBe(false);
          // Nothing changed: the same bytes.
          expect(serializeDocument(codec, doc, doc.conversations.map((c) => c.records))).toBe(text);
        }),
        { numRuns: 80, seed: 41 },
      );
    });
  }
});

describe('Aider chat history: writing new messages', () => {
  const codec = codecById('aider-chat')!;
  const made = (role: 'user' | 'assistant' | 'system' | 'tool', text: string) => codec.fromView({ role, normalRole: role, parts: [{ kind: 'text', text }] });

  it('new sessions get their header; replies in a row, blank edges and "<blank>" read back as written', () => {
    const conversations = [
      [made('system', 'Be brief.'), made('user', 'Hi\n\n  there  '), made('assistant', 'One.'), made('assistant', 'Two,\n> quoted\n#### not a prompt'), made('assistant', '\n  padded\n'), made('assistant', 'Three.')],
      [made('user', ''), made('user', '<blank>'), made('tool', 'ran\n\nok'), made('tool', 'again'), made('assistant', 'a\r\nb\r')],
    ];
    for (const seed of ['', '\r\n# aider chat started at 2025-01-01 00:00:00\r\n\r\n']) {
      const doc = codec.parse(seed, CHAT);
      const out = codec.serialize(doc, conversations);
      expect(out.match(/^# aider chat started at /gm)).toHaveLength(2);
      const back = read(out);
      expect(back.codec.id).toBe('aider-chat');
      expect(back.doc.conversations.map((c) => c.records.map((r) => displayText(codec.view(r))))).toEqual(conversations.map((c) => c.map((r) => displayText(codec.view(r)))));
      expect(back.doc.conversations[0].records.map((r) => codec.view(r).role)).toEqual(['tool', 'user', 'assistant', 'assistant', 'assistant', 'assistant']);
      expect(serializeDocument(back.codec, back.doc, back.doc.conversations.map((c) => c.records))).toBe(out);
    }
  });

  it('deleting a message keeps the ones around it apart (two notices, two prompts, two replies)', () => {
    const text = '\n# aider chat started at 2025-01-01 00:00:00\n\n> one  \n#### p  \n> two  \n\nreply one\n\n#### q  \n\nreply two\n\n#### r  \n> n  \n#### s  \n> m  \n#### u  \nreply three\n';
    const { codec: c, doc } = read(text);
    expect(texts(text)[0]).toEqual([['tool', 'one'], ['user', 'p'], ['tool', 'two'], ['assistant', 'reply one'], ['user', 'q'], ['assistant', 'reply two'], ['user', 'r'], ['tool', 'n'], ['user', 's'], ['tool', 'm'], ['user', 'u'], ['assistant', 'reply three']]);
    const records = doc.conversations[0].records;
    for (const gone of [1, 4, 7, 10]) {
      const kept = records.filter((_, i) => i !== gone);
      const out = c.serialize(doc, [kept]);
      expect(read(out).doc.conversations[0].records, `without ${gone}`).toEqual(kept);
      for (const r of kept) expect(out).toContain(c.rawText(doc, 0, r));
    }
  });
});

describe('Aider input history (prompt_toolkit FileHistory)', () => {
  /** prompt_toolkit's own reading of the file: runs of `+` lines, the `+` off each, the last line break dropped. */
  const promptToolkit = (text: string): string[] => {
    const out: string[] = [];
    let run: string[] = [];
    const add = () => {
      if (run.length > 0) out.push(run.join('').slice(0, -1));
      run = [];
    };
    for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
      if (line.startsWith('+')) run.push(line.slice(1));
      else add();
    }
    add();
    return out;
  };

  it('each prompt a message with its time; written back byte for byte', () => {
    const { codec, doc } = read(inputText, INPUT);
    expect(codec.id).toBe('aider-input');
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(views.map((v) => displayText(v))).toEqual(promptToolkit(inputText));
    expect(views[1]).toMatchObject({ role: 'user', normalRole: 'user', timestamp: '2025-03-14T09:13:02.551930' });
    for (const text of [inputText, inputText.replace(/\n$/, ''), '', 'junk\n']) expect(unchanged(text, INPUT)).toBe(text);
  });

  it('an edit with edge-biased text reads back exactly, as prompt_toolkit reads it (property)', () => {
    for (const text of [inputText, inputText.replace(/\n$/, '')]) {
      const { codec, doc } = read(text, INPUT);
      const records = doc.conversations[0].records;
      fc.assert(
        fc.property(fc.nat(records.length - 1), edgeString, (k, typed) => {
          const edited = codec.withText(records[k], typed);
          const out = serializeDocument(codec, doc, [records.map((r, i) => (i === k ? edited : r))]);
          const expected = promptToolkit(text);
          expected[k] = typed;
          expect(promptToolkit(out)).toEqual(expected);
          expect(read(out, INPUT).doc.conversations[0].records.map((r) => displayText(codec.view(r)))).toEqual(expected);
          // The comment with its time is kept; only the prompt's `+` lines change.
          expect(out.startsWith(text.slice(0, text.indexOf(codec.rawText(doc, 0, records[k])!) + codec.rawText(doc, 0, records[k])!.indexOf('\n+') + 1))).toBe(true);
        }),
        { numRuns: 80, seed: 43 },
      );
    }
  });
});

describe('Aider files in a listing', () => {
  it('the history by its name or its head; other Markdown and other .history files are not conversations', () => {
    expect(isConversationFileName(`/p/${CHAT}`, () => '')).toBe(true);
    expect(isConversationFileName('/p/chat-log.md', () => '\n# aider chat started at 2025-03-14 09:12:07\n\n')).toBe(true);
    expect(isConversationFileName('/p/README.md', () => '# Project\n\nSome docs.\n')).toBe(false);
    expect(isConversationFileName('/p/notes.md', () => '# aider\n\n> a quote\n')).toBe(false);
    expect(isConversationFileName(`/p/${INPUT}`)).toBe(true);
    expect(isConversationFileName('/p/.python.history')).toBe(false);
    // Detection: Aider does not take MEMORY.md or other Markdown, and swarms does not take Aider's file.
    expect(candidates('MEMORY.md', '# Agent Memory\n\n## Interaction Log\n').map((c) => c.id)).toEqual(['swarms-memory']);
    expect(candidates('README.md', '# Project\n\n#### Notes\n> quote\n').map((c) => c.id)).toEqual([]);
    expect(candidates(CHAT, chatText)[0].id).toBe('aider-chat');
  });

  it('the walker lists Aider’s dotfiles, and no other dotfile', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'project'));
    writeFileSync(join(dir, 'project', CHAT), chatText);
    writeFileSync(join(dir, 'project', INPUT), inputText);
    writeFileSync(join(dir, 'project', 'README.md'), '# Project\n');
    writeFileSync(join(dir, 'project', '.notes.md'), '# Notes\n');
    writeFileSync(join(dir, 'project', '.ipython.history'), '+x\n');
    expect(walkConversationTree(dir).files.map((f) => f.path)).toEqual([`project/${CHAT}`, `project/${INPUT}`]);
  });
});
