import { isPlainObject } from '../../message.js';
import type { ConversationDocument } from '../codec.js';
import type { Problem } from '../validity.js';
import { extraOf } from './view.js';

const USER_SIDE = new Set(['human', 'user', 'observation']);
const MODEL_SIDE = new Set(['gpt', 'assistant', 'function_call']);

/**
 * What LLaMA-Factory's ShareGPT reader accepts (it drops a conversation that breaks these): after the
 * system prompt, turns alternate human-side (`human`, `observation`) and model-side (`gpt`,
 * `function_call`), starting with the human; an even number of them (an odd one for a preference pair,
 * whose answers are `chosen` and `rejected`); a `function_call` turn is JSON with a name, and an
 * `observation` follows one; `tools` is a JSON list.
 */
export function shareGptProblems(doc: ConversationDocument): Problem[] {
  const problems: Problem[] = [];
  doc.conversations.forEach((c, conversation) => {
    const at = (message: number | undefined, text: string) => problems.push({ conversation, message, text });
    const turns = c.records.map((r, i) => ({ r, i })).filter(({ r }) => !extraOf(r));
    const pair = c.records.some((r) => extraOf(r) === 'chosen' || extraOf(r) === 'rejected');
    let k = 0;
    for (const { r, i } of turns) {
      const from = isPlainObject(r) ? r.from : undefined;
      if (from === 'system') {
        if (k > 0) at(i, 'a system turn stands only first');
        continue;
      }
      const side = k % 2 === 0 ? USER_SIDE : MODEL_SIDE;
      if (typeof from !== 'string' || !side.has(from)) at(i, `turn ${k + 1} is "${String(from)}": it must be ${k % 2 === 0 ? 'human or observation' : 'gpt or function_call'} there`);
      if (from === 'function_call') {
        try {
          const call = JSON.parse(String((r as Record<string, unknown>).value)) as unknown;
          const calls = Array.isArray(call) ? call : [call];
          if (!calls.every((x) => isPlainObject(x) && typeof x.name === 'string')) at(i, 'the function_call turn is not JSON with a "name"');
        } catch {
          at(i, 'the function_call turn is not JSON');
        }
      }
      if (from === 'observation' && k > 0 && (turns.find((t) => t.i === i - 1)?.r as Record<string, unknown> | undefined)?.from !== 'function_call') at(i, 'an observation follows a function_call turn');
      k++;
    }
    if (k === 0) at(undefined, 'the conversation has no turns');
    else if (pair ? k % 2 === 0 : k % 2 === 1) at(undefined, pair ? 'a preference pair needs an odd number of turns (ending with the human)' : `the conversation has ${k} turns: LLaMA-Factory needs an even number (each human turn answered)`);
    const tools = c.meta?.toolsText;
    if (tools !== undefined && tools !== '') {
      try {
        if (!Array.isArray(JSON.parse(tools))) at(undefined, '"tools" is not a JSON list');
      } catch {
        at(undefined, '"tools" is not JSON');
      }
    }
  });
  return problems;
}
