import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../app/service/dispatch.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { searchTree } from '../../src/core/search/scan.js';
import { bestTermMatch, snippetAround, termMatches } from '../../src/core/search/snippet.js';
import { queryTerms } from '../../src/core/search/words.js';
import { tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

const MESSAGES = [
  { role: 'system', content: 'You are the billing agent.' },
  { role: 'user', content: 'Fix the parser: it drops the last invoice line.' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'create_invoice', arguments: '{"amount": 12}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'Invoice INV-0042 created' },
  { role: 'assistant', content: 'The parser is fixed; the speed of parsing is unchanged.' },
  { role: 'user', content: 'Does it handle "voice" memos and ÉCOLE names? Speedy please.' },
];

describe('one search rule for a file and across conversations', () => {
  it('the file search (/) finds exactly the messages the search across conversations finds in that file, for any query', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'billing.json'), JSON.stringify(MESSAGES, null, 2));
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: false, watch: false });
    runtimes.push(rt);
    const fileSearch = async (query: string) => {
      const r = await dispatch(rt.handlers, 'conversation:search', { path: 'billing.json', conversation: 0, query });
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as { matches: number[] }).matches;
    };
    const across = (query: string) => searchTree(dir, query).hits.map((h) => h.index);
    // The cases newcomers met: words in another order, a tool's name, a word's start, another case.
    for (const query of ['parser fix', 'fix parser', 'invoice', 'INVOICE create', 'speed', 'voice', 'école', 'inv', 'the parser is', '']) {
      expect(await fileSearch(query), query).toEqual(across(query));
    }
    expect(await fileSearch('parser fix')).toEqual([1, 4]);
    expect(await fileSearch('invoice')).toEqual([1, 2, 3]);
    // "voice" is a word of message 5, not the end of "invoice".
    expect(await fileSearch('voice')).toEqual([5]);
    const words = MESSAGES.flatMap((m) => JSON.stringify(m).split(/[^A-Za-zÉé_]+/)).filter(Boolean);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 3 }), async (parts) => {
        const query = parts.join(' ');
        expect(await fileSearch(query)).toEqual(across(query));
      }),
      { numRuns: 150 },
    );
  });

  it('marks what it found by the same rule: each word beginning with a word of the query, in any order and case', () => {
    const text = 'Fixed the Parser; create_invoice ran. The parser_fix is in.';
    const marked = (query: string) => termMatches(text, queryTerms(query)).map(([a, b]) => text.slice(a, b));
    expect(marked('parser fix')).toEqual(['Fix', 'Parser', 'parser', 'fix']);
    expect(marked('invoice')).toEqual(['invoice']);
    expect(marked('voice')).toEqual([]);
  });

  it('a hit shows the line where the query\'s rarest word is, its other words beside it: not the first of many', () => {
    const text = Array.from({ length: 300 }, (_, i) => `Paragraph ${i}: the notes of Marker-${i} and more text.`).join('\n');
    const at = bestTermMatch(text, queryTerms('marker-137'))!;
    expect(snippetAround(text, at).text).toContain('Marker-137');
    expect(text.slice(at[0], at[1])).toBe('137');
    // Credit NOTE: both words, where they are together.
    const notes = 'A note about the weather, and another note.\nThe Credit Note for invoice 9 was issued.';
    const both = bestTermMatch(notes, queryTerms('Credit NOTE'))!;
    expect(snippetAround(notes, both).text).toBe('The Credit Note for invoice 9 was issued.');
  });
});


describe('a found tool call reads as its values, not its JSON', () => {
  it('in the CLI’s scan and in the app’s search from the catalog alike; a word only a JSON key holds still finds it', async () => {
    const dir = tempDir();
    const session = '5a1f0c3e-2b4d-4e6f-8a9b-0c1d2e3f4a5b';
    const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: session, version: '2.0.0', timestamp: '2026-03-01T10:00:00.000Z' };
    const lines = [
      { ...base, parentUuid: null, uuid: 'u1', type: 'user', message: { role: 'user', content: 'Where is the needle defined?' } },
      { ...base, parentUuid: 'u1', uuid: 'a1', type: 'assistant', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'grep -rn "haystack" src', description: 'Find where it is defined' } }] } },
      { ...base, parentUuid: 'a1', uuid: 'u2', type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'src/hay.ts:3: export const haystack = 1;' }] } },
    ];
    writeFileSync(join(dir, `${session}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const scan = (query: string) => searchTree(dir, query).hits.map((h) => [h.index, h.snippet]);
    expect(scan('haystack grep')).toEqual([[1, 'Bash: grep -rn "haystack" src · Find where it is defined']]);
    // "description" is a key of the arguments alone: found, and shown as written.
    expect(scan('description')).toEqual([[1, expect.stringContaining('"description"')]]);
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: false, searchIndexFile: false, watch: false });
    runtimes.push(rt);
    for (;;) {
      const s = await dispatch(rt.handlers, 'catalog:sessions', {});
      if (s.ok && !(s.value as { status: { building: boolean } }).status.building) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const query of ['haystack grep', 'description']) {
      const r = await dispatch(rt.handlers, 'search:query', { query });
      if (!r.ok) throw new Error(r.error.message);
      expect((r.value as { hits: Array<{ index: number; snippet?: string }> }).hits.map((h) => [h.index, h.snippet]), query).toEqual(scan(query));
    }
  });
});
