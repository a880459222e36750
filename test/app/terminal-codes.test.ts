// A command's captured output with its terminal's codes (Claude Code's <local-command-stdout>): shown as the
// terminal drew it, in the table and the transcript; the file keeps every byte.
import { describe, expect, it } from 'vitest';
import '../../src/core/formats/all.js';
import { codecById } from '../../src/core/formats/registry.js';
import { transcriptView } from '../../app/service/documents/shown-message.js';
import { tableRow } from '../../app/service/documents/skeleton.js';
import { withoutTerminalCodes } from '../../src/core/util/terminal-codes.js';

const codec = codecById('claude-code')!;
const said = '<local-command-stdout>Set model to \u001b[1mSonnet 4.6 (default)\u001b[22m</local-command-stdout>';
const record = { type: 'user', sessionId: 's', uuid: 'u1', parentUuid: null, timestamp: '2026-01-01T00:00:00Z', isMeta: true, message: { role: 'user', content: said } };

describe('terminal codes in what a tool captured', () => {
  it('are not shown in the row or the transcript', () => {
    const view = codec.view(record);
    expect(tableRow(view, 0).preview).toBe('Set model to Sonnet 4.6 (default)');
    expect((transcriptView(view).parts[0] as { text: string }).text).toBe('Set model to Sonnet 4.6 (default)');
    // The record itself is untouched.
    expect(record.message.content).toBe(said);
  });

  it('colours, cursor moves, titles and links go; text without them is the same string', () => {
    expect(withoutTerminalCodes('\u001b[31;1mred\u001b[0m \u001b[2K\u001b[1Gdone \u001b]0;title\u0007x \u001b]8;;https://a.b\u001b\\link\u001b]8;;\u001b\\')).toBe('red done x link');
    const plain = 'no codes here [1m but brackets, \t tabs and 🎉';
    expect(withoutTerminalCodes(plain)).toBe(plain);
  });
});
