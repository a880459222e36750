import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutLineNumbers } from '../../src/core/util/numbered-lines.js';

describe('a file read out with its lines numbered', () => {
  it("reads as the file's text, in both of Claude Code's spellings, what follows the numbered lines kept", () => {
    expect(withoutLineNumbers('     1→#!/bin/bash\n     2→\n     3→# Install')).toBe('#!/bin/bash\n\n# Install');
    expect(withoutLineNumbers('1\tpackage models\n2\t\n3\timport (\n4\t\t"time"')).toBe('package models\n\nimport (\n\t"time"');
    expect(withoutLineNumbers('40\tfunc a() {\n41\t}\n\n<system-reminder>\nnote\n</system-reminder>')).toBe('func a() {\n}\n\n<system-reminder>\nnote\n</system-reminder>');
    // Crush's view: the file in a tag, each line numbered before a bar.
    expect(withoutLineNumbers('<file>\n     1|# env\n     2|\n     3|An idempotent tool\n</file>')).toBe('# env\n\nAn idempotent tool\n</file>');
  });

  it('leaves any other text alone: one numbered line, numbers out of order, a list, prose', () => {
    for (const t of ['<file>\n1\ta\n2\tb', '1|a\n2|b', '1\tonly one line', '1\ta\n3\tb', '1. first\n2. second', 'Paris is the capital.', '', '\n\n', '12 apples\n13 pears']) expect(withoutLineNumbers(t)).toBeUndefined();
  });

  it('whatever the lines, taking the numbers off and putting them back gives the text', () => {
    const line = fc.string({ unit: fc.constantFrom('a', ' ', '\t', '→', '1', '\r', '𝔘', '\u2028') });
    fc.assert(
      fc.property(fc.array(line, { minLength: 2, maxLength: 80 }), fc.nat(5000), fc.constantFrom('→', '\t'), fc.boolean(), (lines, first, mark, padded) => {
        const numbered = lines.map((l, k) => `${padded ? String(first + k).padStart(6) : String(first + k)}${mark}${l}`).join('\n');
        const plain = withoutLineNumbers(numbered);
        expect(plain).toBeDefined();
        // Past the lines looked at, the text is as it was.
        const looked = Math.min(lines.length, 60);
        expect(plain).toBe([...lines.slice(0, looked), ...numbered.split('\n').slice(looked)].join('\n'));
      }),
    );
  });
});

describe("a Claude Code Read result's row", () => {
  it('reads as the file it read, in the app and in the CLI; the file keeps the numbers', async () => {
    await import('../../src/core/formats/all.js');
    const { codecById } = await import('../../src/core/formats/registry.js');
    const { tableRow } = await import('../../app/service/documents/skeleton.js');
    const codec = codecById('claude-code')!;
    const record = { type: 'user', uuid: 'u1', sessionId: 's', timestamp: '2026-06-02T09:36:13Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '1\tpackage models\n2\t\n3\timport (\n4\t\t"time"\n5\t)' }] } };
    expect(tableRow(codec.view(record), 0).preview).toBe('package models import ( "time" )');
    expect((record.message.content[0] as { content: string }).content.startsWith('1\t')).toBe(true);
  });
});
