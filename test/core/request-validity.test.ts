import { describe, expect, it } from 'vitest';
import type { MessageView } from '../../src/core/formats/model.js';
import { NO_RESULT, requestBody } from '../../src/core/formats/request-shape.js';
import { anthropicRequestProblems } from '../../src/core/formats/request-validity.js';

const user = (...parts: MessageView['parts']): MessageView => ({ role: 'user', normalRole: 'user', parts });
const assistant = (...parts: MessageView['parts']): MessageView => ({ role: 'assistant', normalRole: 'assistant', parts });
const text = (t: string) => ({ kind: 'text' as const, text: t });
const call = (id: string) => ({ kind: 'tool-call' as const, id, name: 'Read', arguments: '{"file_path":"/a"}' });
const result = (id: string, t = 'ok') => ({ kind: 'tool-result' as const, callId: id, text: t });
const messagesOf = (views: MessageView[]) => {
  const r = requestBody('anthropic-messages', views);
  return { messages: (r.body as { messages: Array<{ role: string; content: unknown }> }).messages, notes: r.notes ?? [] };
};

describe('what the Messages API refuses', () => {
  it('names each refusal: same roles in a row, empty text, a call unanswered, a result without its call, results after text, an id twice', () => {
    const say = (messages: unknown[]) => anthropicRequestProblems(messages).map((p) => p.text);
    expect(say([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }])).toEqual(['two user messages in a row']);
    expect(say([{ role: 'user', content: [{ type: 'text', text: '  ' }] }])).toEqual(['a text block is empty']);
    expect(say([{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }, { type: 'tool_use', id: 't2', name: 'x', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }])).toEqual(['the tool_use t2 of the message before has no tool_result here']);
    expect(say([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't9', content: 'ok' }] }])).toEqual(['a tool_result answers t9, which the message before does not call']);
    expect(say([{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }] }, { role: 'user', content: [{ type: 'text', text: 'wait' }, { type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }])).toEqual(['the tool_result for t1 comes after other content (results go first)']);
    expect(say([{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }] }])).toEqual(['the tool_use t1 is answered by no message after it']);
  });
});

describe('what the model sees is a request the API takes', () => {
  it('parallel calls written a line each, their results a line each: one assistant message, then one user message of results', () => {
    const { messages, notes } = messagesOf([user(text('look')), assistant(text('Two reads.')), assistant(call('a')), assistant(call('b')), user(result('a')), user(result('b')), assistant(text('Done.'))]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect((messages[2].content as Array<{ tool_use_id: string }>).map((b) => b.tool_use_id)).toEqual(['a', 'b']);
    expect(anthropicRequestProblems(messages)).toEqual([]);
    expect(notes).toEqual([]);
  });

  it('a call the file has no result for is answered as having none, and said; a result without its call goes as text', () => {
    const { messages, notes } = messagesOf([user(text('look')), assistant(call('a'), call('b')), user(result('a')), user(text('stop')), user(result('z', 'stray'))]);
    expect(anthropicRequestProblems(messages)).toEqual([]);
    const results = messages[2].content as Array<{ type: string; tool_use_id?: string; content?: string; text?: string }>;
    expect(results.slice(0, 2).map((b) => [b.tool_use_id, b.content])).toEqual([
      ['b', NO_RESULT],
      ['a', 'ok'],
    ]);
    expect(results.at(-1)?.text).toContain('stray');
    expect(notes).toEqual([`1 tool call has no result in the file: answered "${NO_RESULT}", as the API needs every call answered`, '1 tool result without its call in the message before: sent as text']);
  });

  it('blank text is left out, and a message left with nothing goes (the ones around it are one message then)', () => {
    const { messages } = messagesOf([user(text('a')), assistant(text('b')), user(text(' \n\t')), assistant(text('c'))]);
    expect(messages).toEqual([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'text', text: 'b' }, { type: 'text', text: 'c' }] },
    ]);
  });
});
