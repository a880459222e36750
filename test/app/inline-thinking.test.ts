// Reasoning a model wrote into its answer between <think> tags (Crush, Open WebUI and chat files of R1-like
// models keep it so): the transcript folds it as reasoning, the row and the header read the answer.
import { describe, expect, it } from 'vitest';
import '../../src/core/formats/all.js';
import { codecById } from '../../src/core/formats/registry.js';
import { tableRow } from '../../app/service/documents/skeleton.js';
import { transcriptView } from '../../app/service/documents/shown-message.js';
import { inlineThinking, titleWithoutThinking } from '../../src/core/util/inline-thinking.js';

const codec = codecById('openai-chat')!;

describe('reasoning in <think> tags at the start of an answer', () => {
  it('is folded as reasoning in the transcript, the answer after it as text; the row reads the answer; the file keeps it', () => {
    const record = { role: 'assistant', content: '<think>\nThe user greets me.\n</think>\n\nHello! How can I help?' };
    const parts = transcriptView(codec.view(record)).parts;
    expect(parts).toEqual([
      { kind: 'reasoning', text: 'The user greets me.' },
      { kind: 'text', text: 'Hello! How can I help?' },
    ]);
    expect(tableRow(codec.view(record), 0).preview).toBe('Hello! How can I help?');
    expect(record.content.startsWith('<think>')).toBe(true);
  });

  it('never closed: all reasoning, which the row then shows; a user’s text or tags later in an answer are left as they are', () => {
    const cut = { role: 'assistant', content: '  <THINKING>still **weighing** it' };
    expect(transcriptView(codec.view(cut)).parts).toEqual([{ kind: 'reasoning', text: 'still **weighing** it' }]);
    expect(tableRow(codec.view(cut), 0).preview).toBe('still weighing it');
    const user = { role: 'user', content: '<think>not a model</think> ok' };
    expect(transcriptView(codec.view(user)).parts).toEqual([{ kind: 'text', text: '<think>not a model</think> ok' }]);
    expect(inlineThinking('An answer that quotes <think>tags</think>')).toBeUndefined();
  });

  it('a title a model wrote after its reasoning is the words after it; none when the reasoning never ended', () => {
    expect(titleWithoutThinking('<think>\nOkay, a title.\n</think>\n\nGreeting exchange')).toBe('Greeting exchange');
    expect(titleWithoutThinking('<think>Okay, the user wants me to gene')).toBeUndefined();
    expect(titleWithoutThinking('Plain title')).toBe('Plain title');
  });

  it('reasoning alone before a tool call (Crush): the row reads the call, the transcript folds the reasoning', () => {
    const record = { role: 'assistant', content: '<think>\nI should look at the README.\n</think>\n\n', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'view', arguments: '{"file_path":"/p/README.md"}' } }] };
    expect(tableRow(codec.view(record), 0).preview).toMatch(/^view/);
    expect(tableRow(codec.view(record), 0).preview).toContain('README.md');
    expect(transcriptView(codec.view(record)).parts[0]).toEqual({ kind: 'reasoning', text: 'I should look at the README.' });
  });
});
