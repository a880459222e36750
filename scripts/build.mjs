// Builds everything `npm start`, `serve` and the bin need: the CLI (with the browser-mode server), the token
// worker, the Electron main and preload bundles, and the renderer.
import { build as esbuild } from 'esbuild';
import { build as vite } from 'vite';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const node = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'warning' };
const only = process.argv.includes('--cli-only');

// The bin, split so that `serve` (the server, its watcher, zod) loads only when it runs; chunks stay in dist/
// beside the workers they start. Chunks of earlier builds are removed first.
for (const f of existsSync('dist') ? readdirSync('dist') : []) if (/^cli-[A-Z0-9]+\.mjs(\.map)?$/.test(f)) rmSync(join('dist', f));
await esbuild({ ...node, entryPoints: { cli: 'app/server/cli-entry.ts' }, outdir: 'dist', splitting: true, outExtension: { '.js': '.mjs' }, chunkNames: 'cli-[hash]' });
await esbuild({ ...node, entryPoints: ['app/service/tokens/token-worker.ts'], outfile: 'dist/token-worker.mjs' });
// The document service's thread, beside each bundle that starts it.
await esbuild({ ...node, entryPoints: ['app/service/backend/service-worker.ts'], outfile: 'dist/service-worker.mjs' });
await esbuild({ ...node, entryPoints: ['app/service/watch/watch-worker.ts'], outfile: 'dist/watch-worker.mjs' });
// The search index's thread, beside each bundle that starts it.
await esbuild({ ...node, entryPoints: ['app/service/search/search-worker.ts'], outfile: 'dist/search-worker.mjs' });
// The catalog's file readers, beside each bundle that builds a catalog.
await esbuild({ ...node, entryPoints: ['src/core/catalog/read-worker.ts'], outfile: 'dist/catalog-read-worker.mjs' });
if (!only) {
  await esbuild({ ...node, entryPoints: ['app/main/index.ts'], outfile: 'dist/main/index.mjs', external: ['electron'] });
  await esbuild({ ...node, entryPoints: ['app/service/tokens/token-worker.ts'], outfile: 'dist/main/token-worker.mjs' });
  await esbuild({ ...node, entryPoints: ['app/service/backend/service-worker.ts'], outfile: 'dist/main/service-worker.mjs' });
  await esbuild({ ...node, entryPoints: ['app/service/watch/watch-worker.ts'], outfile: 'dist/main/watch-worker.mjs' });
  await esbuild({ ...node, entryPoints: ['app/service/search/search-worker.ts'], outfile: 'dist/main/search-worker.mjs' });
  await esbuild({ ...node, entryPoints: ['src/core/catalog/read-worker.ts'], outfile: 'dist/main/catalog-read-worker.mjs' });
  // Sandboxed preloads cannot be ES modules: CommonJS, with electron provided by the runtime.
  await esbuild({ ...node, packages: undefined, format: 'cjs', entryPoints: ['app/preload/index.ts'], outfile: 'dist/preload/index.cjs', external: ['electron'] });
  await vite({ configFile: 'vite.config.ts', logLevel: 'warn' });
}
