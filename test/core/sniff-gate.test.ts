// A listing asks a codec's sniffer only of heads that hold one of its sniffNeeds in quotes (found for all codecs
// in one pass). The gate must never change which formats a head is read as: checked on every fixture, and on
// heads built from the very words the sniffers look for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../src/core/index.js';
import { candidates, listCodecs } from '../../src/core/formats/registry.js';
import { FIXTURES, ROOT } from '../helpers.js';
import { fixtureFiles } from '../support/fixture-files.js';
import { edgeString } from '../support/edge-arbitraries.js';

const ids = (name: string, head: string, gated: boolean) => candidates(name, head, gated).map((c) => c.id);

describe('the sniff gate', () => {
  it('gives every fixture the formats the sniffers give it alone, at a listing head of 4 KB, 64 KB and whole', () => {
    // The repository's fixtures and the bundled examples (both inside the repository: a clean clone has them).
    const files = [...fixtureFiles(FIXTURES).map((f) => join(FIXTURES, f)), ...fixtureFiles(join(ROOT, 'examples')).map((f) => join(ROOT, 'examples', f))];
    expect(files.length).toBeGreaterThan(50);
    let gatedOut = 0;
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      for (const head of [text.slice(0, 4096), text.slice(0, 65536), text]) {
        expect(ids(f, head, true), f).toEqual(ids(f, head, false));
        gatedOut += listCodecs().filter((c) => c.sniffNeeds && !candidates(f, head, true).includes(c)).length;
      }
    }
    // The gate does skip sniffers (else it would test nothing).
    expect(gatedOut).toBeGreaterThan(files.length);
  });

  // Every word a sniffer's source names (keys, values, marks such as "minisweagent."), harvested from the
  // sniffers themselves, so that a codec added later is covered too. A head draws mostly on one codec's words,
  // so that what a sniffer wants together comes together.
  const wordsOf = (c: { sniff: (h: string, n: string) => number }) => {
    const source = c.sniff.toString();
    // What follows a quote ("sessionId, "ATIF-v, "msg_), and each choice of a quoted group ("(say|ask)").
    const quoted = [...source.matchAll(/"([A-Za-z_][\w.-]*)/g)].map((m) => m[1]);
    const choices = [...source.matchAll(/"\(([^()]*)\)/g)].flatMap((m) => m[1].split('|'));
    const marks = [...source.matchAll(/[/|]([a-z]+)\\\./g)].map((m) => `${m[1]}.`);
    // Words a pattern spells in pieces ("re(quester|sponder)Username", "(session|user)\.[a-z_]+").
    const pieces = ['requesterUsername', 'responderUsername', 'session.start', 'user.message', 'assistant.message', 'tool.execution_start', 'gen_ai.input.messages', 'gen_ai.prompt.0.content'];
    return [...new Set([...quoted, ...choices, ...marks, ...pieces])].map((w) => w.replace(/\\/g, ''));
  };
  const all = [...new Set(listCodecs().flatMap(wordsOf))];
  // Keys from a few of the codec's words (what a sniffer wants together, without what it rules out), values
  // from all of them.
  const headOf = (own: string[], keys: string[]) => {
    const word = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.constantFrom(...all) });
    const value: fc.Arbitrary<string> = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...own).map((w) => JSON.stringify(w)) },
      { weight: 2, arbitrary: fc.constantFrom('1', '12', 'true', 'null', '{}', '[]', '"msg_1"', '"request_1"', '"ATIF-v1.2"', '"mini-swe-agent-1"', '"gen_ai.input.messages"') },
      { weight: 1, arbitrary: edgeString.map((s) => JSON.stringify(s)) },
    );
    const member = fc.tuple(word, value, fc.constantFrom(':', ': ', ' : ')).map(([k, v, colon]) => `"${k}"${colon}${v}`);
    const object: fc.Arbitrary<string> = fc.letrec((tie) => ({
      obj: fc
        .array(
          fc.oneof(
            { weight: 4, arbitrary: member },
            { weight: 1, arbitrary: fc.tuple(word, tie('obj'), fc.constantFrom(':', ': ')).map(([k, o, c]) => `"${k}"${c}${o}`) },
            { weight: 1, arbitrary: fc.tuple(word, fc.array(tie('obj'), { maxLength: 3 })).map(([k, l]) => `"${k}": [${l.join(', ')}]`) },
          ),
          { maxLength: 6 },
        )
        .map((ms) => `{${ms.join(', ')}}`),
    })).obj;
    return fc.oneof(
      fc.array(object, { maxLength: 4 }).map((l) => `[${l.join(',\n  ')}]`),
      object,
      fc.array(object, { minLength: 1, maxLength: 4 }).map((l) => l.join('\n') + '\n'),
      fc.tuple(fc.constantFrom('', ' ', '\n', '\ufeff'), object).map(([lead, o]) => lead + o),
    );
  };
  const head = fc
    .constantFrom(...listCodecs().map(wordsOf).filter((w) => w.length > 0))
    .chain((own) => fc.subarray(own, { minLength: 1, maxLength: 5 }).chain((keys) => headOf(own, keys)));
  // Each sniffer's own patterns, pulled from its source: a head spelled by a few of them (matches of
  // `"type"\s*:\s*"(user|gemini)"` and the like, run together) walks the sniffer's branches directly.
  const patternsOf = (c: { sniff: (h: string, n: string) => number }) =>
    [...c.sniff.toString().matchAll(/\/((?:\\.|\[(?:\\.|[^\]])*\]|[^/\n[\\])+)\/([imsu]*)\.(?:test|exec)\(/g)].map((m) => new RegExp(m[1], m[2].replace("i", "")))
      // What fast-check cannot spell (word boundaries) is left to the other properties.
      .filter((re) => !/\\b|\(\?[=!<]/.test(re.source));
  const name = fc.constantFrom('x.json', 'x.jsonl', 'ui_messages.json', 'api_conversation_history.json', 'sessions.json', 'a.traj', 'agent-1f2e.jsonl', 'grok-backend.json', 'h.md', 'c.yaml');

  it('gives heads built from the sniffers own words the formats the sniffers give them alone', () => {
    let read = 0;
    fc.assert(
      fc.property(name, head, (n, h) => {
        const alone = ids(n, h, false);
        if (alone.length > 0) read++;
        expect(ids(n, h, true)).toEqual(alone);
      }),
      { numRuns: 20000 },
    );
    // Most heads are read as some format: the sniffers were asked something they answer.
    expect(read).toBeGreaterThan(4000);
  });

  it('gives heads spelled by any set of a sniffer\'s own patterns the formats the sniffers give them alone', () => {
    // Every subset of a gated codec's patterns, each spelled by fast-check from the pattern, run together in
    // either order on one line or several, under the names the codec reads: what each branch of the sniffer wants, with and
    // without what it rules out.
    let heads = 0;
    let read = 0;
    for (const c of listCodecs().filter((x) => x.sniffNeeds)) {
      const patterns = [...new Map(patternsOf(c).map((re) => [re.source, re])).values()];
      expect(patterns.length, c.id).toBeLessThanOrEqual(10);
      const spelled = patterns.map((re, k) => fc.sample(fc.stringMatching(re, { size: 'xsmall' }), { numRuns: 2, seed: 7 + k }));
      const names = [...c.extensions.map((e) => `x${e}`), 'ui_messages.json', 'api_conversation_history.json', 'sessions.json', 'agent-1f2e.jsonl'];
      for (let set = 1; set < 1 << patterns.length; set++) {
        // Both orders: a pattern anchored at the start comes first in one of them.
        for (const variant of [0, 1]) {
          const chosen = spelled.filter((_, k) => set & (1 << k)).map((x) => x[variant]);
          const pieces = variant === 0 ? chosen : chosen.reverse();
          for (const [lead, sep] of [['{', ', '], ['[{', ''], ['', '\n']]) {
            const h = lead + pieces.join(sep);
            for (const n of names) {
              const alone = ids(n, h, false);
              if (alone.length > 0) read++;
              heads++;
              expect(ids(n, h, true), `${c.id}: ${n} ${JSON.stringify(h)}`).toEqual(alone);
            }
          }
        }
      }
    }
    expect(read).toBeGreaterThan(heads / 10);
  });
});
