import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Catalog, CatalogSync } from '../../src/core/catalog/index.js';
import { tempDir } from '../helpers.js';
import '../../src/core/formats/all.js';
import { codecById } from '../../src/core/formats/registry.js';
import { projectOf } from '../../src/core/catalog/project.js';

describe("a session's project", () => {
  it('is one project however a tool spells a Windows drive letter (c:\\ from a URI, C:\\ from the shell)', () => {
    const continueCodec = codecById('claude-code')!;
    expect(projectOf('/s/a.json', continueCodec, 'c:\\Users\\acodu\\dev\\dashboard')).toBe('C:\\Users\\acodu\\dev\\dashboard');
    expect(projectOf('/s/a.json', continueCodec, 'C:\\Users\\acodu\\dev\\dashboard')).toBe('C:\\Users\\acodu\\dev\\dashboard');
    expect(projectOf('/s/a.json', continueCodec, 'd:/work/app')).toBe('D:/work/app');
    // A POSIX path, or a name that only starts like a drive, is kept as written.
    expect(projectOf('/s/a.json', continueCodec, '/home/dev/c:app')).toBe('/home/dev/c:app');
    expect(projectOf('/s/a.json', continueCodec, 'c:app')).toBe('c:app');
    // Claude Code's folder name decoded: its drive as the folder spells it, upper-cased alike.
    expect(projectOf('/p/projects/c--Users-me/x.jsonl', continueCodec, undefined)).toBe('C:\\Users\\me');
  });
});

describe('Gemini CLI sessions of one folder hash are one project', () => {
  // A later CLI names a project's folder by a short name (`tmp/app/`); its sessions may name no path of their own,
  // while an older one under `tmp/<hash>/` proves the folder (a path in it hashes to its projectHash).
  const folder = '/home/dev/shop';
  const hash = createHash('sha256').update(folder).digest('hex');
  const session = (id: string, text: string) => JSON.stringify({ sessionId: id, projectHash: hash, startTime: '2026-01-27T17:45:47.110Z', lastUpdated: '2026-01-27T17:52:06.720Z', messages: [{ id: `${id}-1`, timestamp: '2026-01-27T17:45:47.110Z', type: 'user', content: text }, { id: `${id}-2`, timestamp: '2026-01-27T17:45:50.110Z', type: 'gemini', content: 'Looking.', model: 'gemini-2.5-pro', tokens: { input: 100, output: 10, cached: 0, thoughts: 0, tool: 0, total: 110 } }] }, null, 2);
  const projects = (c: Catalog, dir: string) => c.sessions({ under: [dir], limit: 10 }).map((s) => [s.path.slice(dir.length + 1), s.project]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));

  it('the short-named folder’s sessions take the folder another session proves, whichever is read first', async () => {
    const dir = tempDir();
    const named = join(dir, 'tmp', 'shop-app', 'chats');
    const hashed = join(dir, 'tmp', hash, 'chats');
    mkdirSync(named, { recursive: true });
    writeFileSync(join(named, 'session-2026-01-27T17-44-aaaa.json'), session('aaaa', 'why does checkout fail?'));
    const catalog = Catalog.open(join(tempDir(), 'catalog.sqlite'));
    const sync = new CatalogSync(catalog);
    await sync.syncFolders([dir]);
    // Alone, it is known by its folder's name.
    expect(projects(catalog, dir)).toEqual([['tmp/shop-app/chats/session-2026-01-27T17-44-aaaa.json', 'shop-app']]);
    mkdirSync(hashed, { recursive: true });
    writeFileSync(join(hashed, 'session-2025-10-30T23-49-bbbb.json'), session('bbbb', `look at ${folder}/src/cart.ts`));
    await sync.syncFolders([dir]);
    expect(projects(catalog, dir)).toEqual([
      ['tmp/' + hash + '/chats/session-2025-10-30T23-49-bbbb.json', folder],
      ['tmp/shop-app/chats/session-2026-01-27T17-44-aaaa.json', folder],
    ]);
    // Read in one go (the proven one first, or after), the same.
    const fresh = Catalog.open(join(tempDir(), 'fresh.sqlite'));
    await new CatalogSync(fresh).syncFolders([dir]);
    expect(projects(fresh, dir)).toEqual(projects(catalog, dir));
    expect(fresh.usage('project', [dir]).map((u) => u.key)).toEqual([folder]);
  });
});
