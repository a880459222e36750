import fc from 'fast-check';
import type { Message } from '../../../src/core/index.js';

const words = fc.lorem({ maxCount: 30, mode: 'sentences' });
const text = fc.oneof({ weight: 4, arbitrary: words }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 80 }) }, { weight: 1, arbitrary: fc.constant('') });

type Turn = Message[];

let callCounter = 0;
const toolExchange: fc.Arbitrary<Turn> = fc
  .tuple(fc.integer({ min: 1, max: 3 }), fc.array(words, { minLength: 3, maxLength: 3 }), fc.constantFrom('openai', 'anthropic'))
  .map(([k, results, style]) => {
    const ids = Array.from({ length: k }, () => `call_${++callCounter}`);
    if (style === 'anthropic') {
      return [
        { role: 'assistant', content: ids.map((id) => ({ type: 'tool_use', id, name: 'lookup', input: {} })) },
        ...ids.map((id, i) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: results[i] }] })),
      ] as Message[];
    }
    return [
      { role: 'assistant', content: '', metadata: { tool_calls: ids.map((id) => ({ id, type: 'function' })) } },
      ...ids.map((id, i) => ({ role: 'tool', content: results[i], metadata: { tool_call_id: id } })),
    ] as Message[];
  });

const chat: fc.Arbitrary<Turn> = fc.tuple(fc.constantFrom('user', 'assistant', 'User', 'Researcher'), text, fc.boolean(), fc.boolean()).map(([role, content, ts, structured]) => {
  const m: Message = { role, content: structured ? { note: content, n: content.length } : content };
  if (ts) m.timestamp = '2026-01-15T10:00:05.123456';
  return [m];
});

/** Random histories: a static prefix, then chat turns and whole tool exchanges (calls before results). */
export const history: fc.Arbitrary<Message[]> = fc
  .tuple(
    fc.array(fc.constantFrom('System', 'system', 'developer'), { maxLength: 2 }).chain((roles) => fc.tuple(...roles.map((r) => words.map((t) => ({ role: r, content: t }) as Message)))),
    fc.array(fc.oneof({ weight: 3, arbitrary: chat }, { weight: 1, arbitrary: toolExchange }), { maxLength: 14 }),
  )
  .map(([statics, turns]) => [...statics, ...turns.flat()]);
