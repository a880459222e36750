import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_EXTENSIONS, BUILT_IN_LOADERS } from '../../src/core/formats/built-in.js';
import { BUILT_IN_CODECS } from '../../src/core/formats/all.js';
import { codecById, loadCodec } from '../../src/core/formats/registry.js';
import { ROOT } from '../helpers.js';
import { listContainers } from '../../src/core/formats/containers/index.js';
import { LISTED_BY_NAME } from '../../src/core/formats/containers/listed-names.js';

describe('the built-in formats as known before their readers load', () => {
  it('names every built-in codec by its id, and loads that very codec', async () => {
    expect(Object.keys(BUILT_IN_LOADERS).sort()).toEqual(BUILT_IN_CODECS.map((c) => c.id).sort());
    for (const codec of BUILT_IN_CODECS) {
      expect(await BUILT_IN_LOADERS[codec.id](), codec.id).toBe(codec);
      expect(await loadCodec(codec.id)).toBe(codecById(codec.id));
    }
    expect(await loadCodec('no-such-format')).toBeUndefined();
    expect(await loadCodec('toString')).toBeUndefined();
  });

  it('lists every extension a built-in codec reads', () => {
    expect([...BUILT_IN_EXTENSIONS].sort()).toEqual([...new Set(BUILT_IN_CODECS.flatMap((c) => c.extensions))].sort());
  });

  it("knows the databases a listing shows by name as their containers do", () => {
    const listed = listContainers().filter((c) => c.listed);
    expect(listed.map((c) => c.id).sort()).toEqual(Object.keys(LISTED_BY_NAME).sort());
    for (const c of listed) {
      expect(LISTED_BY_NAME[c.id].listed, c.id).toBe(c.listed);
      expect(LISTED_BY_NAME[c.id].extensions, c.id).toEqual(c.extensions);
    }
  });

  // A search from an up-to-date catalog reads each hit's line with its own format's reader: it loads no other,
  // and what it loads to start is what it needs to walk the folders and ask the catalog.
  it("the CLI's search loads no format's reader until it has hits", async () => {
    const r = await build({ absWorkingDir: ROOT, bundle: true, platform: 'node', format: 'esm', packages: 'external', entryPoints: ['src/cli/search-command.ts'], write: false, metafile: true, splitting: true, outdir: '/tmp/unused', logLevel: 'silent' });
    const inputs = r.metafile.inputs;
    const reached = new Set<string>(['src/cli/search-command.ts']);
    for (const path of reached) for (const i of inputs[path]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) reached.add(i.path);
    const readers = [...reached].filter((p) => /^src\/core\/formats\/(all\.ts|document-file\.ts|containers\/index\.ts|[^/]+\/[\w-]*codecs?\.ts)$/.test(p));
    expect(readers).toEqual([]);
    expect(reached.has('src/core/catalog/search.ts')).toBe(true);
  });
});
