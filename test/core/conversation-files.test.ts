import { diffLines } from 'diff';
import fc from 'fast-check';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { Conversation, ConversationFileError, ValueError } from '../../src/core/index.js';
import { MALFORMED, SWARMS, fixtureCopy, read, silentLogger, tempDir } from '../helpers.js';

const make = (options: ConstructorParameters<typeof Conversation>[0] = {}) => new Conversation({ conversationsDir: tempDir(), ...options });

describe('export', () => {
  it('writes the bare list to saveFilepath in the export format, creating the directory', () => {
    const dir = join(tempDir(), 'nested', 'dir');
    const c = new Conversation({ name: 'e', conversationsDir: dir });
    c.add('user', 'Grüße');
    c.export();
    expect(read(c.saveFilepath)).toBe('[\n    {\n        "role": "user",\n        "content": "Grüße"\n    }\n]\n');
    const y = new Conversation({ name: 'y', conversationsDir: dir, exportMethod: 'yaml' });
    y.add('user', 'on');
    y.export();
    expect(read(y.saveFilepath)).toBe("-   role: user\n    content: 'on'\n");
  });

  it('export(false) with autosave off only warns', () => {
    const { warnings, logger } = silentLogger();
    const c = make({ name: 'f', logger });
    c.add('user', 'x');
    c.export(false);
    expect(existsSync(c.saveFilepath)).toBe(false);
    expect(warnings).toHaveLength(1);
  });

  it('saving a loaded file keeps its style: a one-message edit is a one-message diff', () => {
    const path = fixtureCopy('swarms/conversation_demo.json');
    const before = read(path);
    const c = new Conversation({ saveFilepath: path });
    c.update(2, 'user', 'What is the capital of Italy?');
    c.export();
    const changes = diffLines(before, read(path)).filter((p) => p.added || p.removed);
    expect(changes.map((p) => p.value)).toEqual([
      '        "content": "What is the capital of France?",\n',
      '        "content": "What is the capital of Italy?",\n',
    ]);
  });

  it('keeps the file style across several saves and an add', () => {
    const path = fixtureCopy('swarms/conversation_demo.yaml');
    const before = read(path);
    const c = new Conversation({ saveFilepath: path, exportMethod: 'yaml', autosave: true });
    c.add('user', 'And of Spain?');
    c.add('assistant', 'Madrid.');
    const after = read(path);
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toBe('-   role: user\n    content: And of Spain?\n-   role: assistant\n    content: Madrid.\n');
  });
});

describe('autosave', () => {
  it('exports after every add', () => {
    const c = make({ name: 'auto', autosave: true });
    c.add('user', 'one');
    expect(JSON.parse(read(c.saveFilepath))).toHaveLength(1);
    c.add('assistant', 'two');
    expect(JSON.parse(read(c.saveFilepath))).toHaveLength(2);
  });
});

describe('saveAsJson / saveAsYaml', () => {
  it('write the history to saveFilepath in that format', () => {
    const c = make({ name: 's' });
    c.add('user', 'x');
    c.saveAsYaml();
    expect(YAML.parse(read(c.saveFilepath))).toEqual([{ role: 'user', content: 'x' }]);
    c.saveAsJson();
    expect(JSON.parse(read(c.saveFilepath))).toEqual([{ role: 'user', content: 'x' }]);
  });

  it('with force=false and autosave off, only warn', () => {
    const { warnings, logger } = silentLogger();
    const c = make({ name: 's', logger });
    c.saveAsJson(false);
    c.saveAsYaml(false);
    expect(existsSync(c.saveFilepath)).toBe(false);
    expect(warnings).toHaveLength(2);
  });
});

describe('load', () => {
  it.each(['conversation_demo.json', 'conversation_demo.yaml', 'legacy_wrapper.json', 'legacy_history_key.json'])('replaces the history with %s', (file) => {
    const c = make();
    c.add('user', 'old');
    c.load(join(SWARMS, file));
    expect(c.conversationHistory.map((m) => m.content)).not.toContain('old');
    expect(c.conversationHistory.length).toBeGreaterThan(1);
  });

  it('accepts .yml', () => {
    const path = join(tempDir(), 'c.yml');
    writeFileSync(path, '- role: user\n  content: hi\n');
    const c = make();
    c.load(path);
    expect(c.conversationHistory).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('a missing file warns and changes nothing, whatever its extension', () => {
    const { warnings, logger } = silentLogger();
    const c = make({ logger });
    c.add('user', 'keep');
    c.load('/nonexistent/file.json');
    c.load('/nonexistent/file.txt');
    expect(c.conversationHistory).toEqual([{ role: 'user', content: 'keep' }]);
    expect(warnings).toHaveLength(2);
  });

  it('another extension is a ValueError', () => {
    expect(() => make().load(join(MALFORMED, 'wrong_extension.txt'))).toThrow(ValueError);
  });

  it.each(readdirSync(MALFORMED).filter((f) => f !== 'wrong_extension.txt'))('a malformed file (%s) throws and leaves the history as it was', (file) => {
    const c = make();
    c.add('user', 'keep');
    expect(() => c.load(join(MALFORMED, file))).toThrow(ConversationFileError);
    expect(c.conversationHistory).toEqual([{ role: 'user', content: 'keep' }]);
  });

  it('wrapper metadata sets known options and never paths', () => {
    const c = make();
    const save = c.saveFilepath;
    c.load(join(SWARMS, 'legacy_wrapper.json'));
    expect([c.id, c.name, c.systemPrompt, c.timeEnabled]).toEqual(['8f14e45fceea167a5a36dedd4bea2543', 'research-run', 'You are a research agent.', true]);
    expect(c.saveFilepath).toBe(save);
  });

  it('export after loading a wrapper writes a bare list', () => {
    const path = fixtureCopy('swarms/legacy_wrapper.json');
    const c = new Conversation({ saveFilepath: path });
    c.export();
    expect(Array.isArray(JSON.parse(read(path)))).toBe(true);
  });
});

describe('loadFromJson / loadFromYaml / importConversation', () => {
  it('ignore the extension', () => {
    const dir = tempDir();
    const jsonAsTxt = join(dir, 'a.txt');
    writeFileSync(jsonAsTxt, read(join(SWARMS, 'conversation_demo.json')));
    const yamlAsTxt = join(dir, 'b.txt');
    writeFileSync(yamlAsTxt, read(join(SWARMS, 'conversation_demo.yaml')));
    const a = make();
    a.loadFromJson(jsonAsTxt);
    const b = make();
    b.loadFromYaml(yamlAsTxt);
    const c = make();
    c.importConversation(jsonAsTxt);
    expect(a.conversationHistory).toHaveLength(5);
    expect(b.conversationHistory).toEqual(a.conversationHistory);
    expect(c.conversationHistory).toEqual(a.conversationHistory);
  });
});

describe('exportConversation', () => {
  it('a .json name saves to saveFilepath, as documented', () => {
    const dir = tempDir();
    const c = new Conversation({ name: 'x', conversationsDir: dir });
    c.add('user', 'hi');
    c.exportConversation(join(dir, 'elsewhere.json'));
    expect(existsSync(join(dir, 'elsewhere.json'))).toBe(false);
    expect(JSON.parse(read(c.saveFilepath))).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('any other name gets role: content lines', () => {
    const dir = tempDir();
    const c = make();
    c.add('user', 'hi');
    c.add('tool', { a: 1 });
    c.exportConversation(join(dir, 'transcript.txt'));
    expect(read(join(dir, 'transcript.txt'))).toBe('user: hi\ntool: {"a":1}\n');
  });
});

describe('Conversation.loadConversation', () => {
  it('with loadFilepath loads that file', () => {
    const c = Conversation.loadConversation('named', tempDir(), join(SWARMS, 'tool_calls.json'));
    expect(c.name).toBe('named');
    expect(c.conversationHistory).toHaveLength(6);
  });

  it('looks for <name>.json, .yaml, .yml, then <name>', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'plain'), '[{"role": "user", "content": "no extension"}]');
    expect(Conversation.loadConversation('plain', dir).conversationHistory[0].content).toBe('no extension');
    writeFileSync(join(dir, 'plain.yml'), '- role: user\n  content: yml\n');
    expect(Conversation.loadConversation('plain', dir).conversationHistory[0].content).toBe('yml');
    writeFileSync(join(dir, 'plain.json'), '[{"role": "user", "content": "json"}]');
    expect(Conversation.loadConversation('plain', dir).conversationHistory[0].content).toBe('json');
  });

  it('returns an empty conversation with that name when nothing is found', () => {
    const c = Conversation.loadConversation('ghost', tempDir());
    expect([c.name, c.conversationHistory.length]).toEqual(['ghost', 0]);
  });
});

describe('Conversation.listConversations / listCachedConversations', () => {
  it('lists only wrapper files with id, name, created_at, newest first', () => {
    const dir = tempDir();
    const wrap = (name: string, created: string) => JSON.stringify({ metadata: { id: name + '-id', name, created_at: created }, conversation_history: [] });
    writeFileSync(join(dir, 'old.json'), wrap('old', '2026-01-01_00-00-00'));
    writeFileSync(join(dir, 'new.json'), wrap('new', '2026-06-01_00-00-00'));
    writeFileSync(join(dir, 'bare.json'), '[]');
    writeFileSync(join(dir, 'broken.json'), '{');
    expect(Conversation.listConversations(dir)).toEqual([
      { id: 'new-id', name: 'new', created_at: '2026-06-01_00-00-00', filepath: join(dir, 'new.json') },
      { id: 'old-id', name: 'old', created_at: '2026-01-01_00-00-00', filepath: join(dir, 'old.json') },
    ]);
  });

  it('listCachedConversations: sorted names of .json, .yaml and .yml files', () => {
    const dir = tempDir();
    for (const f of ['b.yaml', 'a.json', 'c.yml', 'd.txt', 'MEMORY.md']) writeFileSync(join(dir, f), '[]');
    expect(Conversation.listCachedConversations(dir)).toEqual(['a', 'b', 'c']);
    expect(Conversation.listCachedConversations(join(dir, 'missing'))).toEqual([]);
  });
});

describe('export then load (property)', () => {
  const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constant(''));
  const content = fc.oneof(text, fc.jsonValue());
  const msg = fc.record({ role: text, content, extra: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }).filter((k) => k !== '__proto__'), fc.jsonValue(), { maxKeys: 2 }) });

  it.each(['json', 'yaml'] as const)('%s returns the same messages for random histories', (exportMethod) => {
    const dir = tempDir();
    fc.assert(
      fc.property(fc.array(msg, { maxLength: 8 }), (items) => {
        const c = new Conversation({ name: 'prop', conversationsDir: dir, exportMethod, timeEnabled: true, messageIdOn: true });
        c.clear();
        for (const { role, content: value, extra } of items) c.add(role, value, Object.keys(extra).length ? extra : undefined, 'input');
        c.export();
        const back = new Conversation({ conversationsDir: dir });
        back.load(c.saveFilepath);
        expect(JSON.stringify(back.conversationHistory)).toBe(JSON.stringify(c.conversationHistory));
      }),
      { numRuns: 100 },
    );
  });
});
