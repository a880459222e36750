import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversationStore, readConversationFile, ValueError } from '../../src/core/index.js';
import { ROOT, tempDir } from '../helpers.js';

describe('ConversationStore', () => {
  it('history returns the last limit messages, 10 by default, none for 0', () => {
    const store = new ConversationStore(tempDir());
    for (let i = 0; i < 25; i++) store.append('user-123-session-1', { role: i % 2 ? 'assistant' : 'user', content: `m${i}` });
    expect(store.history('user-123-session-1').map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `m${i + 15}`));
    expect(store.history('user-123-session-1', { limit: 3 }).map((m) => m.content)).toEqual(['m22', 'm23', 'm24']);
    expect(store.history('user-123-session-1', { limit: 0 })).toEqual([]);
    expect(store.history('user-123-session-1', { limit: 100 })).toHaveLength(25);
    expect(store.history('unknown')).toEqual([]);
  });

  it('keeps conversations apart and lists their ids', () => {
    const store = new ConversationStore(tempDir());
    store.append('b', { role: 'user', content: 'to b' });
    store.append('a', { role: 'user', content: 'to a' }, { role: 'assistant', content: 'reply' });
    expect(store.list()).toEqual(['a', 'b']);
    expect(store.history('a').map((m) => m.content)).toEqual(['to a', 'reply']);
  });

  it('writes plain swarms files the inspector reads, with timestamps', () => {
    const dir = tempDir();
    new ConversationStore(dir).append('s1', { role: 'user', content: 'hi' });
    const messages = readConversationFile(join(dir, 's1.json')).messages;
    expect(messages[0]).toMatchObject({ role: 'user', content: 'hi' });
    expect(messages[0].timestamp).toMatch(/Z$/);
  });

  it('refuses ids that would escape the directory', () => {
    const store = new ConversationStore(tempDir());
    for (const bad of ['../x', 'a/b', '', '.hidden', 'a..b']) expect(() => store.history(bad)).toThrow(ValueError);
  });

  it('two processes appending to the same conversation at once lose nothing', async () => {
    const dir = tempDir();
    const script = `
      import { ConversationStore } from ${JSON.stringify(join(ROOT, 'src/core/store.ts'))};
      const [dir, who] = process.argv.slice(1);
      const store = new ConversationStore(dir);
      for (let i = 0; i < 60; i++) store.append('shared', { role: who, content: who + ' ' + i });
    `;
    const run = (who: string) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir, who], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (d) => (err += d));
        child.on('exit', (code) => (code === 0 ? resolve(code) : reject(new Error(err))));
      });
    await Promise.all([run('alpha'), run('beta')]);
    const all = new ConversationStore(dir).history('shared', { limit: 1000 });
    expect(all).toHaveLength(120);
    for (const who of ['alpha', 'beta']) {
      expect(all.filter((m) => m.role === who).map((m) => m.content)).toEqual(Array.from({ length: 60 }, (_, i) => `${who} ${i}`));
    }
    expect(readdirSync(dir)).toEqual(['shared.json']);
  });
});
