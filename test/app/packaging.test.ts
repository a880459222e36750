import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ROOT } from '../helpers.js';

// electron-builder downloads its tools and cannot run here; its configuration is checked instead.
describe('electron-builder.yml', () => {
  const config = YAML.parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'));
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

  it('names the app and packs the built main, preload and renderer only', () => {
    expect(config.appId).toMatch(/^[a-z0-9.-]+$/);
    expect(config.productName).toBe('Conversation Inspector');
    expect(config.files).toEqual(expect.arrayContaining(['dist/main/**', 'dist/preload/**', 'dist/renderer/**', 'package.json']));
    expect(config.files.some((f: string) => /^(src|test|e2e|app)\b/.test(f))).toBe(false);
  });

  it('starts the main bundle the build produces', () => {
    expect(config.extraMetadata.main).toBe(pkg.main);
    expect(existsSync(join(ROOT, pkg.main))).toBe(true);
    expect(existsSync(join(ROOT, 'dist', 'preload', 'index.cjs'))).toBe(true);
    expect(existsSync(join(ROOT, 'dist', 'renderer', 'index.html'))).toBe(true);
  });

  it('unpacks every worker the main bundle starts (token counting, the document service, the watcher, the search index)', () => {
    const build = readFileSync(join(ROOT, 'scripts', 'build.mjs'), 'utf8');
    const workers = [...build.matchAll(/outfile: 'dist\/main\/([a-z-]+-worker\.mjs)'/g)].map((m) => m[1]);
    expect(workers.sort()).toEqual(['catalog-read-worker.mjs', 'search-worker.mjs', 'service-worker.mjs', 'token-worker.mjs', 'watch-worker.mjs']);
    expect(config.asarUnpack).toEqual(['dist/main/*-worker.mjs']);
  });

  it('targets the three desktop platforms', () => {
    expect(Object.keys(config)).toEqual(expect.arrayContaining(['linux', 'mac', 'win']));
  });
});
