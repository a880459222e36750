import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completedListElements, finish, lastListElements } from '../../src/core/formats/syntax/list-scan.js';
import { edgeMessage } from '../support/edge-arbitraries.js';

// The scan counts a list's elements from its bytes alone; JSON.stringify and JSON.parse say what it should find.
const wrap = (list: unknown[], wrapped: boolean) => (wrapped ? { meta: { a: [1, { b: '[' }], 'x"]}': '\\' }, history: list } : list);

/** Where each element's bytes end in the whole text: where the text of the list cut after it first differs. */
function elementEnds(list: unknown[], wrapped: boolean, indent: number, crlf: boolean): { text: string; ends: number[] } {
  const render = (l: unknown[]) => {
    const t = JSON.stringify(wrap(l, wrapped), null, indent);
    return crlf ? t.replace(/\n/g, '\r\n') : t;
  };
  const text = render(list);
  const bytes = Buffer.from(text);
  const ends = list.map((_, i) => {
    // The last element: what follows it is the list's closing bracket (and the wrapper's), with white space.
    if (i === list.length - 1) return bytes.length - Buffer.byteLength(text.match(wrapped ? /\s*\]\s*\}$/ : /\s*\]$/)![0]);
    const cut = Buffer.from(render(list.slice(0, i + 1)));
    let k = 0;
    while (k < cut.length && cut[k] === bytes[k]) k++;
    return k;
  });
  return { text, ends };
}

describe('counting a list from its bytes', () => {
  it('at any cut of any list, counts the elements complete before it, and what it keeps parses as those elements', () => {
    fc.assert(
      fc.property(fc.array(edgeMessage, { maxLength: 8 }), fc.boolean(), fc.constantFrom(0, 1, 2, 4), fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true }), (list, wrapped, indent, crlf, at) => {
        const { text, ends } = elementEnds(list, wrapped, indent, crlf);
        const bytes = Buffer.from(text);
        const cut = Math.round(at * bytes.length);
        const seen = completedListElements(bytes.subarray(0, cut));
        const expected = ends.filter((e) => e <= cut).length;
        if (expected === 0) {
          if (seen) expect(seen.count).toBe(0);
          return;
        }
        expect(seen).toBeDefined();
        expect(seen!.count).toBe(expected);
        expect(seen!.end).toBe(ends[expected - 1]);
        expect(seen!.closed).toBe(cut === bytes.length);
        const kept = bytes.subarray(0, seen!.end).toString('utf8') + seen!.closers;
        expect(JSON.parse(kept)).toEqual(JSON.parse(JSON.stringify(wrap(list.slice(0, expected), wrapped))));
      }),
      { numRuns: 600 },
    );
  });

  it('read in steps of any size, finds what one pass finds', () => {
    fc.assert(
      fc.property(fc.array(edgeMessage, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 5 }), fc.double({ min: 0, max: 1, noNaN: true }), (list, wrapped, step, keep, at) => {
        const bytes = Buffer.from(JSON.stringify(wrap(list, wrapped), null, 2));
        const cut = bytes.subarray(0, Math.round(at * bytes.length));
        const whole = completedListElements(cut);
        const stepped = finish(lastListElements(cut, keep, step));
        expect(stepped?.count).toBe(whole?.count);
        expect(stepped?.end).toBe(whole?.end);
        expect(stepped?.closed).toBe(whole?.closed);
        expect(stepped?.closers).toBe(whole?.closers);
      }),
      { numRuns: 400 },
    );
  });

  it('an empty list is closed with none; an element of a list one key down closes with both brackets', () => {
    expect(completedListElements(Buffer.from('[]'))).toMatchObject({ count: 0, closed: true, closers: '' });
    expect(completedListElements(Buffer.from('{"history": [{"a": "]"}, {"b": "\\"}"}'))).toMatchObject({ count: 2, closers: ']}', closed: false, end: 37 });
    expect(completedListElements(Buffer.from('{"x": "['))).toBeUndefined();
  });
});
