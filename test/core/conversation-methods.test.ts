import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { Conversation, historyOutputFormatter, IndexError, OUTPUT_TYPES, ValueError } from '../../src/core/index.js';
import { SWARMS, silentLogger, tempDir } from '../helpers.js';

const make = (options: ConstructorParameters<typeof Conversation>[0] = {}) => new Conversation({ conversationsDir: tempDir(), ...options });

function demo(): Conversation {
  const c = make({ dynamicContextWindow: false });
  c.load(join(SWARMS, 'conversation_demo.json'));
  return c;
}

describe('add', () => {
  it('returns the stored message with only the keys that apply', () => {
    const c = make();
    expect(c.add('user', 'hi')).toEqual({ role: 'user', content: 'hi' });
    expect(c.add('assistant', { x: [1] }, { k: 'v' }, 'output')).toEqual({ role: 'assistant', content: { x: [1] }, category: 'output', metadata: { k: 'v' } });
    expect(c.conversationHistory).toHaveLength(2);
    expect(c.conversationHistory[1]).toBe(c.query(1));
  });
});

describe('addMessages', () => {
  it('keeps name, tool_calls and tool_call_id under metadata so a tool exchange survives', () => {
    const c = make();
    const out = c.addMessages([
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function' }] },
      { role: 'tool', content: '{"ok": true}', tool_call_id: 'call_1', name: 'get_weather' },
    ]);
    expect(out).toEqual([
      { role: 'assistant', content: '', metadata: { tool_calls: [{ id: 'call_1', type: 'function' }] } },
      { role: 'tool', content: '{"ok": true}', metadata: { tool_call_id: 'call_1', name: 'get_weather' } },
    ]);
  });

  it('refuses items that are not objects or have no role, adding none of them', () => {
    const c = make();
    expect(() => c.addMessages([{ role: 'user', content: 'a' }, 'x' as unknown as Record<string, unknown>])).toThrow(ValueError);
    expect(() => c.addMessages([{ content: 'no role' }])).toThrow(/has no "role"/);
    expect(c.conversationHistory).toEqual([]);
  });
});

describe('addMultiple / addMultipleMessages', () => {
  it('adds in order', () => {
    const c = make();
    c.addMultiple(['user', 'assistant'], ['q', 'a']);
    c.addMultipleMessages(['user'], ['q2']);
    expect(c.returnMessagesAsStrings()).toEqual(['user: q', 'assistant: a', 'user: q2']);
  });

  it('refuses lists of different lengths', () => {
    expect(() => make().addMultiple(['user'], ['a', 'b'])).toThrow(ValueError);
  });
});

describe('batchAdd', () => {
  it('appends as-is: no timestamps, ids, counts or autosave', () => {
    const c = make({ timeEnabled: true, messageIdOn: true, tokenCount: true, autosave: true, name: 'b' });
    const m = { role: 'user', content: 'raw', custom: 1 };
    c.batchAdd([m]);
    expect(c.conversationHistory).toEqual([m]);
    expect(c.conversationHistory[0]).toBe(m);
  });
});

describe('addToolOutputToAgent', () => {
  it('adds the tool output through add()', () => {
    const c = make({ tokenCount: true });
    expect(c.addToolOutputToAgent('tool', { temp: 21 })).toEqual({ role: 'tool', content: { temp: 21 }, token_count: make().tokenizer.count('{"temp":21}') });
  });
});

describe('query / delete / update / clear', () => {
  it('query returns the message or null', () => {
    const c = demo();
    expect(c.query(2)?.content).toBe('What is the capital of France?');
    expect(c.query(5)).toBeNull();
    expect(c.query(-1)?.role).toBe('tool');
    expect(c.query(-6)).toBeNull();
  });

  it('delete removes the message, IndexError out of range', () => {
    const c = demo();
    c.delete(0);
    expect(c.conversationHistory).toHaveLength(4);
    expect(() => c.delete(4)).toThrow(IndexError);
    expect(c.conversationHistory).toHaveLength(4);
  });

  it('update replaces role and content, refreshes a stored token_count, warns out of range', () => {
    const { warnings, logger } = silentLogger();
    const c = make({ logger });
    c.load(join(SWARMS, 'conversation_demo.json'));
    c.update(1, 'user', 'Answer briefly.');
    expect(c.query(1)).toMatchObject({ role: 'user', content: 'Answer briefly.', token_count: 3, message_id: '00000000-0000-0000-0000-000000000002' });
    c.update(10, 'user', 'x');
    expect(warnings[0]).toMatch(/out of range/);
  });

  it('clear empties the history', () => {
    const c = demo();
    c.clear();
    expect(c.conversationHistory).toEqual([]);
  });
});

describe('search / searchKeywordInConversation', () => {
  it('search looks inside structured content as JSON text; the keyword variant only in strings', () => {
    const c = demo();
    expect(c.search('Paris').map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(c.searchKeywordInConversation('Paris').map((m) => m.role)).toEqual(['assistant']);
    expect(c.search('paris')).toEqual([]);
  });
});

describe('countMessagesByRole', () => {
  it('always has system, user, assistant and function; roles are case-sensitive', () => {
    expect(demo().countMessagesByRole()).toEqual({ system: 0, user: 1, assistant: 1, function: 0, System: 1, User: 1, tool: 1 });
  });
});

describe('getVisibleMessages', () => {
  const turns = () => {
    const c = make();
    c.load(join(SWARMS, 'multi_agent_turns.json'));
    return c;
  };
  it('keeps messages of earlier turns visible to the agent', () => {
    expect(turns().getVisibleMessages('Bob', 2).map((m) => m.content)).toEqual(['Debate: should agents summarise or truncate?', 'Summarise: truncation loses facts.']);
    expect(turns().getVisibleMessages({ agentName: 'Moderator' }, 3).map((m) => m.role)).toEqual(['Moderator', 'Alice', 'Moderator']);
    expect(turns().getVisibleMessages('Alice', 1).map((m) => m.role)).toEqual(['Moderator']);
  });

  it('a visible_to string compares by equality', () => {
    const c = make();
    c.batchAdd([{ role: 'a', content: 'x', turn: 0, visible_to: 'Bobby' }]);
    expect(c.getVisibleMessages('Bob', 1)).toEqual([]);
    expect(c.getVisibleMessages('Bobby', 1)).toHaveLength(1);
  });

  it('a message without turn or visible_to is an error naming its index', () => {
    const c = make();
    c.batchAdd([{ role: 'a', content: 'x', turn: 0, visible_to: 'all' }, { role: 'b', content: 'y' }]);
    expect(() => c.getVisibleMessages('Bob', 1)).toThrow(/message 1 has no "turn"/);
  });
});

describe('exportAndCountCategories', () => {
  it('counts input and output tokens and prints nothing', () => {
    const c = make();
    c.add('user', 'My input', undefined, 'input');
    c.add('assistant', 'My response', undefined, 'output');
    c.add('assistant', 'uncategorised');
    const t = c.tokenizer;
    expect(c.exportAndCountCategories()).toEqual({
      input_tokens: t.count('My input'),
      output_tokens: t.count('My response'),
      total_tokens: t.count('My input') + t.count('My response'),
    });
  });
});

describe('rendering', () => {
  it('returnHistoryAsString: role: content blocks, [timestamp] prefix, blank line between', () => {
    const c = demo();
    expect(c.returnHistoryAsString().split('\n\n').slice(0, 2)).toEqual([
      '[2026-01-15T10:00:01.250000] System: You are a helpful assistant.',
      '[2026-01-15T10:00:01.250731] User: Answer in one sentence.',
    ]);
    expect(c.returnHistoryAsString()).toContain('tool: {"name":"lookup","result":["Paris",2.1],"ok":true,"note":null}');
    expect(c.getStr()).toBe(c.returnHistoryAsString());
  });

  it('final-message helpers', () => {
    const c = demo();
    c.add('assistant', 'Done.');
    expect(c.getLastMessageAsString()).toBe('assistant: Done.');
    expect(c.getFinalMessage()).toBe('assistant: Done.');
    expect(c.getFinalMessageContent()).toBe('Done.');
    expect(c.returnListFinal()).toEqual(['Done.']);
    expect(c.returnDictFinal()).toEqual(['Done.', 'Done.']);
  });

  it('list, dictionary, strings and JSON views', () => {
    const c = make();
    c.add('user', 'a', { k: 1 }, 'input');
    expect(c.returnMessagesAsList()).toEqual([{ role: 'user', content: 'a' }]);
    expect(c.returnMessagesAsDictionary()).toEqual([{ role: 'user', content: 'a' }]);
    expect(c.returnMessagesAsStrings()).toEqual(['user: a']);
    expect(JSON.parse(c.returnJson())).toEqual([{ role: 'user', content: 'a' }]);
    expect(c.returnJson()).toContain('\n    {');
    expect(c.toDict()).toBe(c.conversationHistory);
    expect(c.toList()).toBe(c.conversationHistory);
    expect(JSON.parse(c.toJson())).toEqual(c.conversationHistory);
    expect(YAML.parse(c.toYaml())).toEqual(c.conversationHistory);
  });

  it('returnAllExceptFirst skips the system prompt and first input', () => {
    const c = demo();
    expect(c.returnAllExceptFirst().map((m) => m.message_id?.slice(-1))).toEqual(['3', '4', '5']);
    expect(c.returnAllExceptFirstString().split('\n')[0]).toBe('What is the capital of France?');
    const plain = make();
    plain.addMultiple(['user', 'assistant', 'user'], ['q', 'a', 'q2']);
    expect(plain.returnAllExceptFirst().map((m) => m.content)).toEqual(['a', 'q2']);
    expect(plain.returnAllExceptFirstString()).toBe('a\nq2');
  });
});

describe('historyOutputFormatter', () => {
  const c = demo();
  it.each([
    ['list', c.returnMessagesAsList()],
    ['dict', c.conversationHistory],
    ['dictionary', c.conversationHistory],
    ['string', c.getStr()],
    ['str', c.getStr()],
    ['all', c.getStr()],
    ['final', c.getFinalMessageContent()],
    ['last', c.getFinalMessageContent()],
    ['json', c.toJson()],
    ['dict-all-except-first', c.returnAllExceptFirst()],
    ['str-all-except-first', c.returnAllExceptFirstString()],
    ['list-final', [c.getFinalMessageContent()]],
    ['dict-final', [c.getFinalMessageContent(), c.getFinalMessageContent()]],
  ])('%s', (type, expected) => {
    expect(historyOutputFormatter(c, type)).toEqual(expected);
  });

  it('yaml keeps insertion order', () => {
    const out = historyOutputFormatter(c, 'yaml') as string;
    expect(YAML.parse(out)).toEqual(c.conversationHistory);
    expect(out.split('\n')[0]).toBe('-   role: System');
    expect(out.split('\n')[1]).toBe('    content: You are a helpful assistant.');
  });

  it('covers every documented type and refuses others, including xml', () => {
    expect(OUTPUT_TYPES).toHaveLength(14);
    expect(() => historyOutputFormatter(c, 'xml')).toThrow(ValueError);
    expect(() => historyOutputFormatter(c, 'nope')).toThrow(/unknown output type/);
  });
});

describe('cacheEnabled / getCacheStats', () => {
  it('memoizes the history string until the history changes', () => {
    const c = make({ cacheEnabled: true });
    c.add('user', 'hello world');
    const first = c.returnHistoryAsString();
    expect(c.returnHistoryAsString()).toBe(first);
    expect(c.getCacheStats()).toEqual({ hits: 1, misses: 1, cached_tokens: c.tokenizer.count(first), hit_rate: 0.5 });
    c.add('assistant', 'hi');
    expect(c.returnHistoryAsString()).toBe('user: hello world\n\nassistant: hi');
    expect(c.getCacheStats().misses).toBe(2);
  });

  it('reports zeros when the cache is off', () => {
    const c = make();
    c.add('user', 'x');
    c.returnHistoryAsString();
    expect(c.getCacheStats()).toEqual({ hits: 0, misses: 0, cached_tokens: 0, hit_rate: 0 });
  });
});
