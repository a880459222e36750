import { diffLines } from 'diff';
import fc from 'fast-check';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConversationFileError,
  parseConversationText,
  readConversationFile,
  serializeConversation,
  writeConversationFile,
  type Message,
  type ParsedConversation,
} from '../../src/core/index.js';
import { MALFORMED, SWARMS, fixtureCopy, read, tempDir } from '../helpers.js';

const saveBack = (p: ParsedConversation, messages: Message[] = p.messages) =>
  serializeConversation(messages, { format: p.format, shape: p.shape, root: p.root, baseline: p.baseline });

/** The lines a change removed and added, as [removed, added]. */
function changedLines(before: string, after: string): [string[], string[]] {
  const removed: string[] = [];
  const added: string[] = [];
  for (const part of diffLines(before, after)) {
    const lines = part.value.split('\n').filter((l, i, a) => !(i === a.length - 1 && l === ''));
    if (part.removed) removed.push(...lines);
    if (part.added) added.push(...lines);
  }
  return [removed, added];
}

describe('reading fixtures', () => {
  it.each([
    ['conversation_demo.json', 'list', 5],
    ['conversation_demo.yaml', 'list', 5],
    ['conversation_edge.json', 'list', 4],
    ['conversation_edge.yaml', 'list', 4],
    ['legacy_wrapper.json', 'wrapper', 3],
    ['legacy_history_key.json', 'history', 2],
    ['tool_calls.json', 'list', 6],
    ['multi_agent_turns.json', 'list', 4],
  ])('%s is a %s of %i messages', (file, shape, count) => {
    const p = readConversationFile(join(SWARMS, file));
    expect(p.shape).toBe(shape);
    expect(p.messages).toHaveLength(count);
    for (const m of p.messages) expect(typeof m.role).toBe('string');
  });

  it('JSON and YAML versions of a conversation read as the same messages', () => {
    for (const name of ['conversation_demo', 'conversation_edge']) {
      expect(readConversationFile(join(SWARMS, `${name}.yaml`)).messages).toEqual(readConversationFile(join(SWARMS, `${name}.json`)).messages);
    }
  });

  it('keeps unknown keys and decodes escapes', () => {
    const edge = readConversationFile(join(SWARMS, 'conversation_edge.json')).messages;
    expect(edge[0].content).toBe('Café ☕ — naïve?\nSecond line');
    const edgeYaml = readConversationFile(join(SWARMS, 'conversation_edge.yaml')).messages;
    expect(edgeYaml[0].content).toBe('Café ☕ — naïve?\nSecond line');
    const turns = readConversationFile(join(SWARMS, 'multi_agent_turns.json')).messages;
    expect(turns[1]).toEqual({ role: 'Alice', content: 'Summarise: truncation loses facts.', turn: 1, visible_to: ['Bob', 'Moderator'] });
  });

  it('reads YAML as PyYAML does (YAML 1.1); ids and timestamps stay strings', () => {
    const demo = readConversationFile(join(SWARMS, 'conversation_demo.yaml')).messages;
    expect(demo[0].message_id).toBe('00000000-0000-0000-0000-000000000001');
    expect(demo[0].timestamp).toBe('2026-01-15T10:00:01.250000');
    const p = parseConversationText('- role: user\n  content: yes\n  timestamp: 2026-01-15T10:00:05\n', 'x.yaml', 'yaml');
    // PyYAML reads a plain `yes` as True; a plain timestamp stays its text (JSON has no date type).
    expect(p.messages[0]).toEqual({ role: 'user', content: true, timestamp: '2026-01-15T10:00:05' });
  });
});

describe('malformed files', () => {
  const cases: Array<[string, RegExp, boolean]> = [
    ['truncated.json', /unexpected end of file/, true],
    ['not_a_list.json', /expected a list of messages.*found an object with keys: role, content/, true],
    ['missing_role.json', /message 0 has no "role"/, true],
    ['bad_indent.yaml', /invalid YAML: All sequence items must start at the same column/, true],
    ['empty.json', /empty/, false],
    ['binary.json', /binary data/, false],
    ['alias_bomb.yaml', /expected a list of messages/, true],
    ['wrong_extension.txt', /unsupported file type "\.txt"/, false],
  ];

  it('covers every file in fixtures/malformed', () => {
    expect(readdirSync(MALFORMED).sort()).toEqual(cases.map((c) => c[0]).sort());
  });

  it.each(cases)('%s gives a clear error naming the file', (file, reason, positioned) => {
    const path = join(MALFORMED, file);
    const before = readFileSync(path);
    let error: unknown;
    try {
      readConversationFile(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConversationFileError);
    const e = error as ConversationFileError;
    expect(e.message).toContain(path);
    expect(e.message).toMatch(reason);
    expect(e.message).not.toMatch(/\n\s+at /);
    if (positioned) {
      expect(e.line).toBeGreaterThan(0);
      expect(e.column).toBeGreaterThan(0);
      expect(e.message).toContain(`${path}:${e.line}:${e.column}:`);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('points at the line and column of a JSON syntax error', () => {
    const e = (() => {
      try {
        parseConversationText('[\n  {"role": "user",\n   "content": oops}\n]', 'f.json', 'json');
      } catch (err) {
        return err as ConversationFileError;
      }
    })();
    expect([e?.line, e?.column]).toEqual([3, 15]);
  });

  it('points at the message that has no role', () => {
    try {
      parseConversationText('[\n    {"role": "a", "content": ""},\n    {"content": "x"}\n]', 'f.json', 'json');
      expect.unreachable();
    } catch (e) {
      expect((e as ConversationFileError).message).toBe('f.json:3:5: message 1 has no "role"');
    }
  });

  it('refuses a YAML alias bomb inside a list before expanding it', () => {
    const bomb = ['- &a {role: user, content: [x, x, x, x, x, x, x, x, x, x]}'];
    let prev = 'a';
    for (const n of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']) {
      bomb.push(`- &${n} {role: user, content: [${Array(10).fill(`*${prev}`).join(', ')}]}`);
      prev = n;
    }
    expect(() => parseConversationText(bomb.join('\n'), 'bomb.yaml', 'yaml')).toThrow(/alias/);
  });

  it('refuses files over the size limit without reading them', () => {
    const file = fixtureCopy('swarms/conversation_demo.json');
    expect(() => readConversationFile(file, { maxFileBytes: 100 })).toThrow(/over the 100 bytes limit/);
  });

  it('refuses invalid UTF-8', () => {
    const file = join(tempDir(), 'bad.json');
    writeFileSync(file, Buffer.from([0x5b, 0xff, 0xfe, 0x5d]));
    expect(() => readConversationFile(file)).toThrow(/not valid UTF-8/);
  });
});

describe('style-preserving save', () => {
  it.each(readdirSync(SWARMS))('%s saves back byte for byte when nothing changed', (file) => {
    const path = join(SWARMS, file);
    expect(saveBack(readConversationFile(path))).toBe(read(path));
  });

  it.each(['conversation_demo.json', 'conversation_demo.yaml', 'tool_calls.json', 'legacy_wrapper.json', 'conversation_edge.yaml'])(
    '%s: a one-message edit is a one-message diff',
    (file) => {
      const path = join(SWARMS, file);
      const before = read(path);
      const p = readConversationFile(path);
      p.messages[1].content = 'Edited text.';
      const after = saveBack(p);
      const [removed, added] = changedLines(before, after);
      expect(added).toHaveLength(1);
      expect(added[0]).toMatch(/content.*Edited text\./);
      expect(removed.length).toBeGreaterThanOrEqual(1);
      expect(readConversationFile(path).messages.length).toBe(p.messages.length);
      expect(parseConversationText(after, path, p.format).messages[1].content).toBe('Edited text.');
    },
  );

  it('editing content keeps the exact text of the other keys (21.0 stays 21.0)', () => {
    const path = join(SWARMS, 'conversation_edge.json');
    const p = readConversationFile(path);
    p.messages[2].role = 'function';
    const after = saveBack(p);
    expect(after).toContain('"temp_c": 21.0');
    const [removed, added] = changedLines(read(path), after);
    expect(removed).toEqual(['        "role": "tool",']);
    expect(added).toEqual(['        "role": "function",']);
  });

  it('new messages follow the file: indent, non-ASCII escaping, no trailing newline', () => {
    const path = join(SWARMS, 'conversation_edge.json');
    const p = readConversationFile(path);
    const after = saveBack(p, [...p.messages, { role: 'user', content: 'Grüße 😀', metadata: { k: [1] } }]);
    expect(after.endsWith(']')).toBe(true);
    expect(after.endsWith('\n]')).toBe(true);
    expect(after).toContain(
      '    },\n    {\n        "role": "user",\n        "content": "Gr\\u00fc\\u00dfe \\ud83d\\ude00",\n        "metadata": {\n            "k": [\n                1\n            ]\n        }\n    }\n]',
    );
    expect(parseConversationText(after, path, 'json').messages[4].content).toBe('Grüße 😀');
  });

  it('new YAML items follow the PyYAML layout of the file', () => {
    const path = join(SWARMS, 'conversation_demo.yaml');
    const p = readConversationFile(path);
    const after = saveBack(p, [...p.messages, { role: 'user', content: 'yes', timestamp: '2026-01-15T10:00:11' }]);
    expect(after.endsWith("token_count: 22\n-   role: user\n    content: 'yes'\n    timestamp: '2026-01-15T10:00:11'\n")).toBe(true);
  });

  it('escapes non-ASCII in new YAML items when the file does', () => {
    const path = join(SWARMS, 'conversation_edge.yaml');
    const p = readConversationFile(path);
    const after = saveBack(p, [...p.messages, { role: 'user', content: 'Café 😀' }]);
    expect(after).toContain('-   role: user\n    content: "Caf\\xE9 \\U0001F600"\n');
    expect(parseConversationText(after, path, 'yaml').messages[4].content).toBe('Café 😀');
  });

  it('deleting and reordering messages only moves their lines', () => {
    const path = join(SWARMS, 'conversation_demo.json');
    const p = readConversationFile(path);
    const [a, b, c, d, e] = p.messages;
    const after = saveBack(p, [a, c, b, d, e].filter((m) => m !== d));
    const reread = parseConversationText(after, path, 'json').messages;
    expect(reread.map((m) => m.message_id)).toEqual([a, c, b, e].map((m) => m.message_id));
    expect(after.startsWith('[\n    {\n        "role": "System"')).toBe(true);
  });

  it('a wrapper stays a wrapper with its metadata', () => {
    const path = join(SWARMS, 'legacy_wrapper.json');
    const p = readConversationFile(path);
    const after = saveBack(p, [...p.messages.slice(0, 1)]);
    const root = JSON.parse(after);
    expect(root.metadata.name).toBe('research-run');
    expect(root.conversation_history).toHaveLength(1);
    const emptied = saveBack(p, []);
    expect(JSON.parse(emptied)).toEqual({ metadata: root.metadata, conversation_history: [] });
  });

  it('new files: 4-space JSON with raw UTF-8 and a trailing newline; block YAML', () => {
    const messages: Message[] = [{ role: 'user', content: 'Grüße', timestamp: '2026-11-30T09:15:02.123Z' }];
    expect(serializeConversation(messages, { format: 'json' })).toBe(
      '[\n    {\n        "role": "user",\n        "content": "Grüße",\n        "timestamp": "2026-11-30T09:15:02.123Z"\n    }\n]\n',
    );
    expect(serializeConversation(messages, { format: 'yaml' })).toBe(
      "-   role: user\n    content: Grüße\n    timestamp: '2026-11-30T09:15:02.123Z'\n",
    );
  });

  it('writes atomically and leaves no temp files behind', () => {
    const dir = tempDir();
    const path = join(dir, 'out.json');
    writeConversationFile(path, [{ role: 'user', content: 'a' }], { format: 'json' });
    writeConversationFile(path, [{ role: 'user', content: 'b' }], { format: 'json' });
    expect(readdirSync(dir)).toEqual(['out.json']);
    expect(readConversationFile(path).messages[0].content).toBe('b');
  });
});

const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !['role', '__proto__'].includes(k));
const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom('', 'yes', 'no', 'on', 'null', '~', '1e3', '0o17', '0x1F', '.inf', '2026-01-15', '2026-01-15T10:00:05', '1:20', '- a', '#x', "it's", 'a: b', '  lead', 'trail  ', '\ttab'));
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(key, tie('v'), { maxKeys: 4 })),
})).v;
const message = fc.record(
  { role: text, content: value, timestamp: text, metadata: fc.dictionary(key, value, { maxKeys: 3 }) },
  { requiredKeys: ['role'] },
).chain((m) => fc.dictionary(key, value, { maxKeys: 2 }).map((extra) => ({ ...extra, ...m }) as Message));

describe('round trip (property)', () => {
  for (const format of ['json', 'yaml'] as const) {
    it(`${format}: export then load returns the same messages`, () => {
      fc.assert(
        fc.property(fc.array(message, { maxLength: 6 }), (messages) => {
          const text = serializeConversation(messages, { format });
          const back = parseConversationText(text.length ? text : '[]', `x.${format}`, format).messages;
          // Compared through JSON so -0 and 0 count as the same number, as they are in a JSON file.
          expect(JSON.parse(JSON.stringify(back))).toEqual(JSON.parse(JSON.stringify(messages)));
        }),
        { numRuns: Number(process.env.FC_RUNS ?? 300) },
      );
    });

    it(`${format}: unchanged messages keep their text through an edit of another`, () => {
      fc.assert(
        fc.property(fc.array(message, { minLength: 2, maxLength: 6 }), fc.nat(), (messages, pick) => {
          const original = serializeConversation(messages, { format });
          const p = parseConversationText(original, `x.${format}`, format);
          const i = pick % p.messages.length;
          p.messages[i] = { ...p.messages[i], content: 'changed' };
          const after = saveBack(p);
          const back = parseConversationText(after, `x.${format}`, format).messages;
          expect(back[i].content).toBe('changed');
          back.forEach((m, j) => {
            if (j !== i) expect(JSON.stringify(m)).toEqual(JSON.stringify(p.messages[j]));
          });
        }),
        { numRuns: Number(process.env.FC_RUNS ?? 200) },
      );
    });
  }
});

describe('files as other tools write them', () => {
  const roundTrip = (name: string, text: string) => {
    const path = join(tempDir(), name);
    writeFileSync(path, text);
    const p = readConversationFile(path);
    return { p, same: saveBack(p), added: saveBack(p, [...p.messages, { role: 'user', content: 'new' }]) };
  };

  it('keeps a byte order mark', () => {
    const { same, added } = roundTrip('bom.json', '\ufeff[{"role": "user", "content": "hi"}]');
    expect(same).toBe('\ufeff[{"role": "user", "content": "hi"}]');
    expect(added.startsWith('\ufeff[')).toBe(true);
  });

  it('keeps CRLF line endings in JSON and YAML, new messages included', () => {
    const json = roundTrip('crlf.json', '[\r\n    {\r\n        "role": "user",\r\n        "content": "hi"\r\n    }\r\n]\r\n');
    expect(json.same).toBe('[\r\n    {\r\n        "role": "user",\r\n        "content": "hi"\r\n    }\r\n]\r\n');
    expect(json.added).not.toMatch(/[^\r]\n/);
    const yaml = roundTrip('crlf.yaml', '- role: user\r\n  content: a\r\n');
    expect(yaml.added).toBe('- role: user\r\n  content: a\r\n- role: user\r\n  content: new\r\n');
  });

  it('leaves a flow-style YAML file untouched when nothing changed', () => {
    expect(roundTrip('flow.yaml', '[{"role": "user", "content": "json in yaml"}]').same).toBe('[{"role": "user", "content": "json in yaml"}]');
  });

  it('a message changed in place is saved even though it is the same object', () => {
    const { p } = roundTrip('flow.yaml', '[{"role": "user", "content": "before"}]');
    p.messages[0].content = 'after';
    expect(parseConversationText(saveBack(p), 'flow.yaml', 'yaml').messages[0].content).toBe('after');
  });

  it('says clearly that several YAML documents are not one history', () => {
    expect(() => parseConversationText('- role: user\n  content: a\n---\n- role: user\n  content: b\n', 'm.yaml', 'yaml')).toThrow(
      'm.yaml:3:1: invalid YAML: the file holds several YAML documents (separated by ---); expected one list of messages',
    );
  });
});
