// Claude Code keeps only the signature of thinking it was not given to show ("thinking": "" and a signature): the
// table, the transcript and the detail pane say so, never an empty row or "(empty)".
import { describe, expect, it } from 'vitest';
import '../../src/core/formats/all.js';
import { codecById } from '../../src/core/formats/registry.js';
import { shownMessage, transcriptView } from '../../app/service/documents/shown-message.js';
import { tableRow } from '../../app/service/documents/skeleton.js';

const codec = codecById('claude-code')!;
const line = (content: unknown[]) => ({ type: 'assistant', sessionId: 's', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-01-01T00:00:00Z', message: { id: 'msg_1', role: 'assistant', model: 'claude-opus-4-5', content } });

describe('signed thinking with no text', () => {
  it('reads as reasoning not kept, in the row, the transcript and the detail pane; its signature is not sent', () => {
    const view = codec.view(line([{ type: 'thinking', thinking: '', signature: 'EqoBCkgIAR' }]));
    expect(tableRow(view, 0).preview).toBe('reasoning not kept in the file (only its signature is)');
    const sent = transcriptView(view).parts[0] as Record<string, unknown>;
    expect(sent).toMatchObject({ kind: 'reasoning', text: '', unkept: true });
    expect(sent.signed).toBeUndefined();
    const detail = shownMessage({ message: {}, view, text: '', raw: '' }, false).view.parts[0] as Record<string, unknown>;
    expect(detail).toMatchObject({ kind: 'reasoning', unkept: true });
    expect(detail.signed).toBeUndefined();
  });

  it('thinking the file keeps is shown as it was, its signature not sent, and not called unkept', () => {
    const view = codec.view(line([{ type: 'thinking', thinking: 'Check the lockfile first.', signature: 'EqoBCkgIAR' }, { type: 'text', text: 'Done.' }]));
    expect(tableRow(view, 0).preview).toBe('Done.');
    const sent = transcriptView(view).parts[0] as Record<string, unknown>;
    expect(sent).toMatchObject({ kind: 'reasoning', text: 'Check the lockfile first.' });
    expect(sent.unkept).toBeUndefined();
    expect(sent.signed).toBeUndefined();
  });
});

describe('reasoning the provider encrypted, with no summary (a Codex reasoning item)', () => {
  const codex = codecById('codex-rollout')!;
  const item = (summary: unknown[]) => ({ timestamp: '2026-11-21T09:30:04.500Z', type: 'response_item', payload: { type: 'reasoning', summary, content: null, encrypted_content: 'gAAAAABpZ0ENCRYPTEDBLOB==' } });

  it('reads as encrypted in the row, never a bare ∴', () => {
    expect(tableRow(codex.view(item([])), 0).preview).toBe('reasoning encrypted by the provider: not readable, not counted');
  });

  it('with a summary, the row is its summary', () => {
    expect(tableRow(codex.view(item([{ type: 'summary_text', text: 'Checking the version flag' }])), 0).preview).toBe('Checking the version flag');
  });
});
