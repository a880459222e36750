// A Codex reasoning summary is Markdown with its heading in bold: the table's row and `show` read it as plain text.
import { describe, expect, it } from 'vitest';
import '../../src/core/formats/all.js';
import { codecById } from '../../src/core/formats/registry.js';
import { tableRow } from '../../app/service/documents/skeleton.js';
import { plainSummary } from '../../src/core/util/reasoning-summary.js';

const codec = codecById('codex-rollout')!;
const record = { timestamp: '2026-11-21T09:30:04.500Z', type: 'response_item', payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Checking the flag**\n\nI’ll read how **it** is parsed.' }], content: null, encrypted_content: 'gAAAA==' } };

describe('a reasoning summary in a one-line preview', () => {
  it('loses the stars of its bold heading, in the row', () => {
    expect(tableRow(codec.view(record), 0).preview).toBe('Checking the flag I’ll read how it is parsed.');
    expect(record.payload.summary[0].text).toContain('**Checking');
  });

  it('takes off paired stars around text only: a glob, a power or a lone pair stays', () => {
    expect(plainSummary('**Planning** next')).toBe('Planning next');
    expect(plainSummary('src/**/*.ts and a**b and ** spaced ** and ****')).toBe('src/**/*.ts and a**b and ** spaced ** and ****');
    expect(plainSummary('**🎉 done**\t')).toBe('🎉 done\t');
    expect(plainSummary('')).toBe('');
  });
});
