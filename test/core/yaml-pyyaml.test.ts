import fc from 'fast-check';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseConversationText, serializeConversation } from '../../src/core/formats/index.js';
import { edgeMessage } from '../support/edge-arbitraries.js';
import { pyyamlDump, pyyamlLoad, pyyamlMissing } from '../support/pyyaml.js';

// PyYAML is the reader swarms users load these files with: it is the oracle here. Missing, the tests say why.
const missing = pyyamlMissing();
if (missing) console.log(`yaml-pyyaml tests skipped: ${missing}`);
const withPy = missing ? it.skip : it;

const LISTS = 1700;
const lists = fc.sample(fc.array(edgeMessage, { minLength: 1, maxLength: 14 }), { numRuns: LISTS, seed: 20261201 });
const messageCount = lists.reduce((n, l) => n + l.length, 0);

/** Values as JSON carries them across to Python and back. */
const viaJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

function firstDifference(expected: unknown[], actual: unknown): string {
  if (!Array.isArray(actual)) return `not a list: ${JSON.stringify(actual)?.slice(0, 200)}`;
  for (let i = 0; i < expected.length; i++) {
    try {
      expect(actual[i]).toEqual(expected[i]);
    } catch {
      return `message ${i}: expected ${JSON.stringify(expected[i])} got ${JSON.stringify(actual[i])}`;
    }
  }
  return actual.length === expected.length ? '' : `length ${actual.length} instead of ${expected.length}`;
}

describe(`YAML against PyYAML (${messageCount} generated messages each way)`, () => {
  it('has at least 10,000 messages to check', () => {
    expect(messageCount).toBeGreaterThanOrEqual(10_000);
  });

  withPy('what this tool writes, PyYAML (pure and libyaml) and YAML 1.2 readers read back as the same messages', () => {
    const texts = lists.map((l) => serializeConversation(l as never, { format: 'yaml' }));
    const { pure, libyaml } = pyyamlLoad(texts);
    const failures: string[] = [];
    lists.forEach((list, i) => {
      const expected = viaJson(list) as unknown[];
      const py = pure[i];
      if (!py.ok) failures.push(`list ${i}: PyYAML refused it: ${py.error}\n${texts[i].slice(0, 400)}`);
      else {
        const d = firstDifference(expected, py.value);
        if (d) failures.push(`list ${i} (PyYAML): ${d}\n${texts[i].slice(0, 600)}`);
      }
      const c = libyaml?.[i];
      // libyaml refuses escapes of lone surrogates (\uD800), which PyYAML itself writes for them: not ours to fix.
      const surrogateEscape = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/.test(texts[i]);
      if (c && !c.ok && !surrogateEscape) failures.push(`list ${i}: libyaml refused it: ${c.error}`);
      else if (c?.ok) {
        const d = firstDifference(expected, c.value);
        if (d) failures.push(`list ${i} (libyaml): ${d}`);
      }
      const d12 = firstDifference(expected, YAML.parse(texts[i], { version: '1.2', schema: 'core' }));
      if (d12) failures.push(`list ${i} (YAML 1.2 core): ${d12}\n${texts[i].slice(0, 600)}`);
      const ours = firstDifference(expected, parseConversationText(texts[i], 'x.yaml', 'yaml').messages);
      if (ours) failures.push(`list ${i} (this tool): ${ours}`);
    });
    expect(failures.slice(0, 5)).toEqual([]);
  }, 300_000);

  withPy('what PyYAML writes, this tool reads as PyYAML does; a one-message edit saved back reads as the edit in PyYAML', () => {
    const dumped = pyyamlDump(lists.map((value, i) => ({ value, allow_unicode: i % 2 === 0, width: i % 3 === 0 ? 40 : 80 })));
    const { pure } = pyyamlLoad(dumped);
    const failures: string[] = [];
    const edited: string[] = [];
    const expectedAfterEdit: unknown[][] = [];
    lists.forEach((list, i) => {
      const py = pure[i];
      if (!py.ok) return failures.push(`PyYAML cannot read its own output for list ${i}: ${py.error}`);
      const parsed = parseConversationText(dumped[i], 'x.yaml', 'yaml');
      const d = firstDifference(py.value as unknown[], parsed.messages);
      if (d) return failures.push(`list ${i}: ${d}\n${dumped[i].slice(0, 600)}`);
      // Edit one message's content and save in the file's own style.
      const k = i % parsed.messages.length;
      const next = parsed.messages.slice();
      next[k] = { ...next[k], content: list[(k + 1) % list.length].content ?? 'edited' };
      edited.push(serializeConversation(next, { format: 'yaml', baseline: parsed.baseline }));
      expectedAfterEdit.push(viaJson(next) as unknown[]);
    });
    expect(failures.slice(0, 5)).toEqual([]);
    const again = pyyamlLoad(edited).pure;
    again.forEach((r, i) => {
      if (!r.ok) failures.push(`edited list ${i}: PyYAML refused it: ${r.error}\n${edited[i].slice(0, 600)}`);
      else {
        const d = firstDifference(expectedAfterEdit[i], r.value);
        if (d) failures.push(`edited list ${i}: ${d}\n${edited[i].slice(0, 600)}`);
      }
    });
    expect(failures.slice(0, 5)).toEqual([]);
  }, 300_000);

  it.skipIf(missing !== undefined)('content ending in blank lines (keep chomping, `|+`) survives an edit or a delete of its neighbours, read by PyYAML', () => {
    const list = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ends in two line breaks\n\n' },
      { role: 'user', content: 'third' },
      { role: 'assistant', content: 'last, also\n\n\n' },
    ];
    const text = serializeConversation(list, { format: 'yaml' });
    expect(text).toContain('|+');
    const parsed = parseConversationText(text, 'x.yaml', 'yaml');
    const edits: Array<{ name: string; next: typeof parsed.messages }> = [
      { name: 'edit the first', next: [{ ...parsed.messages[0], content: 'changed' }, ...parsed.messages.slice(1)] },
      { name: 'delete the third', next: [parsed.messages[0], parsed.messages[1], parsed.messages[3]] },
      { name: 'append one', next: [...parsed.messages, { role: 'user', content: 'new' }] },
      { name: 'move the last first', next: [parsed.messages[3], ...parsed.messages.slice(0, 3)] },
    ];
    const written = edits.map((e) => serializeConversation(e.next, { format: 'yaml', baseline: parsed.baseline }));
    const read = pyyamlLoad(written).pure;
    edits.forEach((e, i) => {
      expect(read[i], e.name).toEqual({ ok: true, value: viaJson(e.next) });
      // Items not touched keep their text, blank lines and all.
      for (const m of e.next) if (parsed.messages.includes(m)) expect(written[i], e.name).toContain(m.content === 'first' ? 'content: first' : (m.content as string).trim());
    });
    // An untouched neighbour's bytes, exactly: the edit of the first changes one line.
    expect(written[0].split('\n').filter((l, k) => l !== text.split('\n')[k])).toEqual(['    content: changed']);
  });

  withPy('an edit of a file yaml.dump folded (width 80) is laid out as yaml.dump lays it out: long text folded, lines as blank lines', () => {
    // Text both writers quote (it holds ': '): words, runs of spaces, line breaks, quotes, letters of any script.
    const word = fc.oneof(fc.stringMatching(/^[A-Za-z0-9.,;!?()'"\-éü日本語]{1,14}$/), fc.constantFrom('😀', 'naïve', '🚀x'));
    const sep = fc.constantFrom(' ', ' ', ' ', '  ', '\n', '\n\n', ': ');
    const text = fc.array(fc.tuple(word, sep), { minLength: 3, maxLength: 60 }).map((ws) => `Note: ${ws.map(([w, s]) => w + s).join('')}end`);
    const cases = fc.sample(fc.tuple(fc.array(text, { minLength: 2, maxLength: 5 }), text), { numRuns: 300, seed: 20261204 });
    const originals = cases.map(([contents]) => contents.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `${'x'.repeat(90)} ${content}` })));
    const edits = cases.map(([contents, next], i) => originals[i].map((m, k) => (k === contents.length - 1 ? { ...m, content: next } : m)));
    const dumped = pyyamlDump(originals.map((value) => ({ value, allow_unicode: true, width: 80 })));
    const expected = pyyamlDump(edits.map((value) => ({ value, allow_unicode: true, width: 80 })));
    const failures: string[] = [];
    cases.forEach((_, i) => {
      const parsed = parseConversationText(dumped[i], 'x.yaml', 'yaml');
      const next = parsed.messages.map((m, k) => (k === parsed.messages.length - 1 ? { ...m, content: edits[i][k].content } : m));
      const ours = serializeConversation(next, { format: 'yaml', baseline: parsed.baseline });
      if (ours !== expected[i]) failures.push(`case ${i}:\n--- yaml.dump\n${expected[i]}\n--- ours\n${ours}`);
    });
    expect(failures.slice(0, 3)).toEqual([]);
  });
});
