import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Conversation, ConversationFileError, MEMORY_PREAMBLE, ValueError } from '../../src/core/index.js';
import { FIXTURES, fixtureCopy, read, silentLogger, tempDir } from '../helpers.js';

describe('constructor defaults', () => {
  it('has the documented defaults as public properties', () => {
    const dir = tempDir();
    const c = new Conversation({ conversationsDir: dir });
    expect(c.name).toMatch(/^conversation-[0-9a-f]{8}$/);
    expect(c.id).toMatch(/^[0-9a-f]{32}$/);
    expect(c.contextLength).toBe(8192);
    expect(c.user).toBe('User');
    expect(c.tokenizerModelName).toBe('gpt-5.4');
    expect(c.exportMethod).toBe('json');
    expect(c.dynamicContextWindow).toBe(true);
    expect([c.timeEnabled, c.autosave, c.tokenCount, c.messageIdOn, c.cacheEnabled]).toEqual([false, false, false, false, false]);
    expect([c.saveAsYamlOn, c.saveAsJsonBool, c.outputMetadata]).toEqual([false, false, false]);
    expect(c.saveFilepath).toBe(join(dir, `conversation_${c.name}.json`));
    expect(c.conversationHistory).toEqual([]);
  });

  it('uses ./conversations under the working directory and creates nothing', () => {
    const c = new Conversation();
    expect(c.conversationsDir).toBe(join(process.cwd(), 'conversations'));
    expect(existsSync(c.saveFilepath)).toBe(false);
  });

  it('gives every unnamed conversation its own random name', () => {
    const names = new Set(Array.from({ length: 50 }, () => new Conversation().name));
    expect(names.size).toBe(50);
  });

  it('writes nothing on construction', () => {
    const dir = join(tempDir(), 'convs');
    new Conversation({ name: 'x', conversationsDir: dir, systemPrompt: 'S', rules: 'R' });
    expect(existsSync(dir)).toBe(false);
  });
});

describe('option validation', () => {
  it.each([0, -1, 1.5, NaN, '100' as unknown as number])('contextLength %s is refused', (value) => {
    expect(() => new Conversation({ contextLength: value })).toThrow(ValueError);
  });

  it('exportMethod other than json or yaml is refused', () => {
    expect(() => new Conversation({ exportMethod: 'xml' })).toThrow(/exportMethod must be "json" or "yaml"/);
  });
});

describe('saveFilepath and exportMethod', () => {
  it('defaults to conversation_<name>.yaml for yaml', () => {
    const dir = tempDir();
    expect(new Conversation({ name: 'n', conversationsDir: dir, exportMethod: 'yaml' }).saveFilepath).toBe(join(dir, 'conversation_n.yaml'));
  });

  it('replaces an extension that does not match the export method', () => {
    const dir = tempDir();
    expect(new Conversation({ saveFilepath: join(dir, 'a.yaml') }).saveFilepath).toBe(join(dir, 'a.json'));
    expect(new Conversation({ saveFilepath: join(dir, 'a.txt'), exportMethod: 'yaml' }).saveFilepath).toBe(join(dir, 'a.yaml'));
    expect(new Conversation({ saveFilepath: join(dir, 'a.yml'), exportMethod: 'yaml' }).saveFilepath).toBe(join(dir, 'a.yml'));
  });
});

describe('seeding: systemPrompt, rules, customRulesPrompt, user', () => {
  it('adds them in order with the right roles', () => {
    const c = new Conversation({ conversationsDir: tempDir(), systemPrompt: 'S', rules: 'R', customRulesPrompt: 'C', user: 'Operator' });
    expect(c.conversationHistory).toEqual([
      { role: 'System', content: 'S' },
      { role: 'Operator', content: 'R' },
      { role: 'Operator', content: 'C' },
    ]);
  });

  it('adds messages after the seeds, with extra keys under metadata', () => {
    const c = new Conversation({
      conversationsDir: tempDir(),
      systemPrompt: 'S',
      messages: [
        { role: 'user', content: 'What is 2 + 2?' },
        { role: 'assistant', content: '4.', name: 'calc' },
      ],
    });
    expect(c.conversationHistory).toEqual([
      { role: 'System', content: 'S' },
      { role: 'user', content: 'What is 2 + 2?' },
      { role: 'assistant', content: '4.', metadata: { name: 'calc' } },
    ]);
  });

  it('autosave writes once a seed triggers it', () => {
    const dir = tempDir();
    const c = new Conversation({ name: 'seeded', conversationsDir: dir, systemPrompt: 'S', autosave: true });
    expect(JSON.parse(read(c.saveFilepath))).toEqual([{ role: 'System', content: 'S' }]);
  });
});

describe('resume', () => {
  it('a named conversation resumes its save file instead of re-seeding', () => {
    const dir = tempDir();
    const first = new Conversation({ name: 'helios', conversationsDir: dir, systemPrompt: 'S' });
    first.add('user', 'Remember that my project is called Helios.');
    first.export();
    const again = new Conversation({ name: 'helios', conversationsDir: dir, systemPrompt: 'S' });
    expect(again.conversationHistory.map((m) => m.content)).toEqual(['S', 'Remember that my project is called Helios.']);
  });

  it('an unnamed conversation never resumes', () => {
    const dir = tempDir();
    const c = new Conversation({ conversationsDir: dir });
    c.add('user', 'x');
    c.export();
    expect(new Conversation({ conversationsDir: dir }).conversationHistory).toEqual([]);
  });

  it('an explicit saveFilepath resumes from that file', () => {
    const path = fixtureCopy('swarms/conversation_demo.json');
    const c = new Conversation({ saveFilepath: path, systemPrompt: 'ignored' });
    expect(c.conversationHistory).toHaveLength(5);
    expect(c.conversationHistory[0].content).toBe('You are a helpful assistant.');
  });

  it('loadFilepath marks the conversation resumable but still reads saveFilepath', () => {
    const dir = tempDir();
    const other = fixtureCopy('swarms/conversation_demo.json');
    const c = new Conversation({ conversationsDir: dir, loadFilepath: other });
    expect(c.conversationHistory).toEqual([]);
    const seeded = new Conversation({ name: 'r', conversationsDir: dir });
    seeded.add('user', 'saved');
    seeded.export();
    const resumed = new Conversation({ saveFilepath: seeded.saveFilepath, loadFilepath: other });
    expect(resumed.conversationHistory.map((m) => m.content)).toEqual(['saved']);
  });

  it('an empty saved list counts as nothing restored: seeds are added', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'conversation_e.json'), '[]');
    const c = new Conversation({ name: 'e', conversationsDir: dir, systemPrompt: 'S' });
    expect(c.conversationHistory).toEqual([{ role: 'System', content: 'S' }]);
  });

  it('a save file that cannot be parsed throws and is left untouched', () => {
    const dir = tempDir();
    const path = join(dir, 'conversation_bad.json');
    writeFileSync(path, '[{"role": "user", "content": "x"},');
    expect(() => new Conversation({ name: 'bad', conversationsDir: dir, autosave: true, systemPrompt: 'S' })).toThrow(ConversationFileError);
    expect(read(path)).toBe('[{"role": "user", "content": "x"},');
  });

  it('applies known wrapper metadata only', () => {
    const dir = tempDir();
    const path = join(dir, 'conversation_w.json');
    writeFileSync(
      path,
      JSON.stringify({
        metadata: { id: 'abc', name: 'renamed', system_prompt: 'SP', time_enabled: true, context_length: 100, autosave: true, export_method: 'yaml', save_filepath: '/etc/x', evil: 1 },
        conversation_history: [{ role: 'user', content: 'hi' }],
      }),
    );
    const c = new Conversation({ name: 'w', conversationsDir: dir });
    expect([c.id, c.name, c.systemPrompt, c.timeEnabled, c.contextLength]).toEqual(['abc', 'renamed', 'SP', true, 100]);
    expect([c.autosave, c.exportMethod, c.saveFilepath]).toEqual([false, 'json', path]);
    expect((c as unknown as Record<string, unknown>).evil).toBeUndefined();
  });
});

describe('memoryMdPath', () => {
  it('creates the file with its header, and logs later adds but not the seeds', () => {
    const path = join(tempDir(), 'agent', 'MEMORY.md');
    const c = new Conversation({ name: 'demo-md', memoryMdPath: path, systemPrompt: 'S', conversationsDir: tempDir() });
    expect(read(path)).toMatch(/^# Agent Memory\n\n\*\*Conversation:\*\* demo-md\n\*\*Created:\*\* \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\n\n---\n\n## Interaction Log\n\n$/);
    c.add('user', '  Hello there  ');
    c.add('assistant', { a: 1 });
    c.add('user', '   ');
    const text = read(path);
    expect(text).toMatch(/### user — \d{4}-[^\n]+Z\n\nHello there\n\n---\n\n### assistant — [^\n]+Z\n\n\{"a":1\}\n\n---\n\n$/);
    expect(text).not.toContain('### System');
  });

  it('loads prior interactions as one System message with the preamble, without logging it', () => {
    const path = fixtureCopy('memory/MEMORY.md');
    const before = read(path);
    const c = new Conversation({ memoryMdPath: path, conversationsDir: tempDir(), timeEnabled: true, tokenCount: true, messageIdOn: true });
    expect(c.conversationHistory).toEqual([{ role: 'System', content: MEMORY_PREAMBLE + before }]);
    expect(read(path)).toBe(before);
  });

  it('does not load a file with no interaction blocks', () => {
    const dir = tempDir();
    const path = join(dir, 'MEMORY.md');
    writeFileSync(path, '# Agent Memory\n\nnothing yet\n');
    expect(new Conversation({ memoryMdPath: path, conversationsDir: dir }).conversationHistory).toEqual([]);
  });

  it('an append first makes the file end with a blank line', () => {
    const dir = tempDir();
    const path = join(dir, 'MEMORY.md');
    writeFileSync(path, '# Agent Memory\n\n### user — 2026-01-01T00:00:00.000Z\n\nold');
    const c = new Conversation({ memoryMdPath: path, conversationsDir: dir });
    c.add('user', 'new');
    expect(read(path)).toMatch(/\n\nold\n\n### user — [^\n]+\n\nnew\n\n---\n\n$/);
  });
});

describe('flags on add: timeEnabled, messageIdOn, tokenCount', () => {
  it('adds timestamp, message_id and token_count in the canonical key order', () => {
    const c = new Conversation({ conversationsDir: tempDir(), timeEnabled: true, messageIdOn: true, tokenCount: true });
    const m = c.add('user', 'The capital of France is Paris.', { source: 'test' }, 'input');
    expect(Object.keys(m)).toEqual(['role', 'content', 'timestamp', 'message_id', 'category', 'metadata', 'token_count']);
    expect(m.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(m.message_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(m.token_count).toBe(7);
  });

  it('tokenizerModelName picks the encoding (cl100k_base reproduces the Python counts)', () => {
    const dir = tempDir();
    const a = new Conversation({ conversationsDir: dir, tokenCount: true, tokenizerModelName: 'cl100k_base' });
    expect(a.add('user', 'Answer in one sentence.').token_count).toBe(5);
    expect(a.tokenizer.encoding).toBe('cl100k_base');
    expect(new Conversation({ conversationsDir: dir, tokenizerModelName: 'claude-opus-4' }).tokenizer.encoding).toBe('o200k_base');
  });
});

describe('options stored but not read', () => {
  it('saveAsYamlOn, saveAsJsonBool and outputMetadata do not change the save format', () => {
    const dir = tempDir();
    const c = new Conversation({ name: 'k', conversationsDir: dir, saveAsYamlOn: true, saveAsJsonBool: true, outputMetadata: true });
    c.add('user', 'x');
    c.export();
    expect(readdirSync(dir)).toEqual(['conversation_k.json']);
    expect([c.saveAsYamlOn, c.saveAsJsonBool, c.outputMetadata]).toEqual([true, true, true]);
  });
});

describe('logger', () => {
  it('receives warnings', () => {
    const { warnings, logger } = silentLogger();
    const c = new Conversation({ conversationsDir: tempDir(), logger });
    c.load(join(FIXTURES, 'does-not-exist.json'));
    expect(warnings[0]).toMatch(/no such file/);
  });
});
