import { cpSync, existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serializeConversation } from '../../src/core/index.js';
import { searchTree } from '../../src/core/search/index.js';
import { Roots } from '../../app/service/roots.js';
import { SearchInputError, SearchService } from '../../app/service/search/search-service.js';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';

const settled = async (s: SearchService) => {
  while (s.status().building || s.status().pending > 0) await new Promise((r) => setTimeout(r, 5));
};
const keys = (hits: ReadonlyArray<{ path: string; conversation: number; index: number }>) => hits.map((h) => `${h.path}#${h.conversation}#${h.index}`);

function tree(): string {
  const dir = tempDir();
  cpSync(join(FIXTURES, 'formats'), join(dir, 'formats'), { recursive: true });
  cpSync(join(FIXTURES, 'swarms'), join(dir, 'swarms'), { recursive: true });
  cpSync(join(FIXTURES, 'malformed', 'truncated.json'), join(dir, 'truncated.json'));
  return dir;
}

describe('the app search service', () => {
  it('answers as the CLI scan does, over every format, snippets included', async () => {
    const dir = tree();
    const service = new SearchService(new Roots([dir]), false);
    await service.query({ query: 'x' });
    await settled(service);
    for (const query of ['read', 'the', 'weather', 'tool', 'zzzz-none']) {
      const answer = await service.query({ query, limit: 2000, snippetMs: 10_000 });
      const scan = searchTree(dir, query);
      expect(keys(answer.hits), query).toEqual(keys(scan.hits));
      expect(answer.total).toBe(scan.hits.length);
      expect(answer.hits.map((h) => h.snippet)).toEqual(scan.hits.map((h) => h.snippet));
    }
    // Roles and formats filter as the scan does.
    const users = await service.query({ query: 'the', roles: ['user'], limit: 2000 });
    expect(keys(users.hits)).toEqual(keys(searchTree(dir, 'the', { roles: ['user'] }).hits));
    const cc = await service.query({ query: 'read', formats: ['claude-code'], limit: 2000 });
    expect(cc.hits.length).toBeGreaterThan(0);
    expect(cc.hits.every((h) => h.format === 'claude-code')).toBe(true);
  });

  it('gives the lines an answer had no time for through snippets()', async () => {
    const dir = tree();
    const kept = join(tempDir(), 'index.v8');
    const service = new SearchService(new Roots([dir]), kept);
    await service.query({ query: 'x' });
    await settled(service);
    const full = await service.query({ query: 'the', limit: 2000, snippetMs: 10_000 });
    service.close();
    // Loaded from what the first one kept: no file read yet, so no line is known at once.
    const fresh = new SearchService(new Roots([dir]), kept);
    // A word no file holds: starting the index reads no file for its lines.
    await fresh.query({ query: 'zzqqxx' });
    await settled(fresh);
    const bare = await fresh.query({ query: 'the', limit: 2000, snippetMs: -1 });
    expect(bare.hits.every((h) => h.snippet === undefined)).toBe(true);
    expect(keys(bare.hits)).toEqual(keys(full.hits));
    const filled = await fresh.snippets({ query: 'the', hits: bare.hits });
    expect(filled.map((h) => h.snippet)).toEqual(full.hits.map((h) => h.snippet));
  });

  it('follows the files: added, changed and removed ones, and a kept index from another run', async () => {
    const dir = tree();
    const kept = join(tempDir(), 'index.v8');
    const service = new SearchService(new Roots([dir]), kept);
    await service.query({ query: 'x' });
    await settled(service);
    const file = join(dir, 'late.json');
    writeFileSync(file, serializeConversation([{ role: 'user', content: 'the wombat report' }], { format: 'json' }));
    service.changed([{ path: file, kind: 'added' }]);
    await settled(service);
    expect((await service.query({ query: 'wombat' })).hits.map((h) => h.path)).toEqual(['late.json']);
    writeFileSync(file, serializeConversation([{ role: 'user', content: 'the numbat report' }, { role: 'assistant', content: 'wombat' }], { format: 'json' }));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    service.changed([{ path: file, kind: 'changed' }]);
    await settled(service);
    expect(keys((await service.query({ query: 'wombat' })).hits)).toEqual(['late.json#0#1']);
    service.close();

    // The next run loads the kept index: a file removed meanwhile is not searched, one changed is read again.
    rmSync(join(dir, 'formats'), { recursive: true });
    writeFileSync(file, serializeConversation([{ role: 'user', content: 'no marsupials here' }], { format: 'json' }));
    utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    const next = new SearchService(new Roots([dir]), kept);
    await next.query({ query: 'x' });
    await settled(next);
    expect((await next.query({ query: 'wombat' })).total).toBe(0);
    expect((await next.query({ query: 'read', formats: ['claude-code'] })).total).toBe(0);
    expect(keys((await next.query({ query: 'marsupials' })).hits)).toEqual(['late.json#0#0']);
    next.close();

    // Another folder with the same kept file: nothing of the first folder is found.
    const other = tempDir();
    writeFileSync(join(other, 'one.json'), serializeConversation([{ role: 'user', content: 'hello' }], { format: 'json' }));
    const third = new SearchService(new Roots([other]), kept);
    await third.query({ query: 'x' });
    await settled(third);
    expect((await third.query({ query: 'marsupials' })).total).toBe(0);
    expect(third.status().files).toBe(1);
    third.close();
  });

  it('refuses a regular expression that does not parse with its reason, and scans with one that does', async () => {
    const dir = tree();
    const service = new SearchService(new Roots([dir]), false);
    await service.query({ query: 'x' });
    await settled(service);
    await expect(service.query({ query: 'a(', regex: true })).rejects.toThrow(/regular expression/);
    const answer = await service.query({ query: 'w[ao]mbat|weather', regex: true, limit: 2000 });
    expect(keys(answer.hits)).toEqual(keys(searchTree(dir, 'w[ao]mbat|weather', { regex: true }).hits));
  });
});

describe('the search index on a thread of its own (the built worker)', () => {
  it.skipIf(!existsSync(join(ROOT, 'dist', 'search-worker.mjs')))('answers as the in-process one does, its progress and errors carried across', async () => {
    const { searchOffThread } = await import('../../app/service/search/search-thread.js');
    const dir = tempDir();
    cpSync(join(FIXTURES, 'formats', 'openai'), join(dir, 'openai'), { recursive: true });
    cpSync(join(FIXTURES, 'formats', 'claude-code'), join(dir, 'claude-code'), { recursive: true });
    const roots = new Roots([dir]);
    const off = searchOffThread(roots, join(tempDir(), 'index.v8'), undefined, ':memory:', pathToFileURL(join(ROOT, 'dist', 'search-worker.mjs')));
    const here = new SearchService(roots, false);
    const statuses: unknown[] = [];
    off.onProgress = (s) => statuses.push(s);
    try {
      expect(off).not.toBeInstanceOf(SearchService);
      const ask = { query: 'weather', limit: 50, snippetMs: 10_000 };
      let a = await off.query(ask);
      // The first answer may come while the index is still being built: asked again once it is done.
      for (let i = 0; i < 50 && a.status.building; i++) {
        await new Promise((r) => setTimeout(r, 50));
        a = await off.query(ask);
      }
      let b = await here.query(ask);
      for (let i = 0; i < 50 && b.status.building; i++) {
        await new Promise((r) => setTimeout(r, 50));
        b = await here.query(ask);
      }
      expect(a.hits).toEqual(b.hits);
      expect(a.hits.length).toBeGreaterThan(0);
      expect(statuses.length).toBeGreaterThan(0);
      await expect(off.query({ query: '(', regex: true })).rejects.toThrow(SearchInputError);
    } finally {
      off.close();
      here.close();
    }
  });
});
