#!/usr/bin/env node
// Runs the bundled CLI; from a checkout that was never built, runs the TypeScript source through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
if (existsSync(dist)) {
  await import(pathToFileURL(dist).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../app/server/cli-entry.ts', import.meta.url).href);
}
