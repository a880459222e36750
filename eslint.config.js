// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layering of ARCHITECTURE.md, enforced: the engine never reaches into the app or Electron; the
 * renderer never touches Node; handlers and the server run without Electron.
 */
const NODE_BUILTINS = ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'worker_threads', 'net', 'http', 'https', 'module', 'url', 'stream'];

/**
 * Spreading an array into a call (`Math.max(...tokens)`, `out.push(...rows)`) or `fn.apply(x, array)` puts
 * every element on the call stack: past ~150k elements (a 200k-message history) it throws RangeError.
 */
const SPREAD_SELECTORS = [
  { selector: 'CallExpression > SpreadElement', message: 'No spread into a call: a history-sized array overflows the stack. Use a loop (src/core/util/numbers.ts: maxOf).' },
  { selector: 'NewExpression > SpreadElement', message: 'No spread into a constructor call: a history-sized array overflows the stack.' },
  { selector: "CallExpression[callee.property.name='apply'][arguments.length=2]:not([callee.object.property.name='history'])", message: 'No fn.apply(this, array): a history-sized array overflows the stack.' },
];

export const noSpreadCalls = {
  files: ['src/**/*.ts', 'app/**/*.{ts,tsx}', 'bench/**/*.ts'],
  rules: { 'no-restricted-syntax': ['error', ...SPREAD_SELECTORS] },
};

/** A component reading the whole store redraws on every change of it (a count tick, a keystroke elsewhere). */
export const storeSelectors = {
  files: ['app/renderer/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-syntax': ['error', ...SPREAD_SELECTORS, { selector: "CallExpression[callee.name='useApp'][arguments.length=0]", message: 'Select what the component reads: useApp((s) => s.x) or useAppPick(...keys), not the whole store.' }],
  },
};

/** The shells (app/main, app/server) hold wiring only: the engine through the service, files on disk aside. */
const SHELL_REACHES_CORE = { regex: 'src/core/(?!storage/)', message: 'A shell holds wiring only: reach the engine through app/service.' };

export const layerRules = [
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'src/core is the engine: it never imports Electron.' }],
        patterns: [
          { group: ['electron/*'], message: 'src/core never imports Electron.' },
          { group: ['**/app/**', 'app/*'], message: 'src/core never imports app/*.' },
        ],
      }],
    },
  },
  {
    files: ['src/core/window/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'Window planners are pure and run in the renderer too.' }],
        patterns: [
          { group: NODE_BUILTINS, message: 'Window planners are pure and run in the renderer: no Node built-ins.' },
          { group: ['**/app/**', '../tokenizer/*', '../storage/*', '../formats/*', '../conversation*'], message: 'Window planners import only pure modules (types are fine).', allowTypeImports: true },
        ],
      }],
    },
  },
  {
    files: ['app/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(?!zod$)(?!\\./)', message: 'app/shared imports zod only (and its own modules).' }],
      }],
    },
  },
  {
    files: ['app/renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The renderer never imports Electron; it talks through the bridge.' }],
        patterns: [{ group: NODE_BUILTINS, message: 'The renderer never touches Node built-ins.' }],
      }],
    },
  },
  {
    // The document service (documents, listing, tokens, watcher, search, editing, handlers) runs in a worker
    // under both shells: it never imports Electron, nor either shell.
    files: ['app/service/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The document service runs without Electron (in a worker, under either shell).' }],
        patterns: [
          { group: ['electron/*'], message: 'The document service runs without Electron.' },
          { group: ['**/main/*', '**/main/**', '**/server/*', '**/server/**', '**/renderer/**'], message: 'The document service never imports a shell (app/main, app/server) or the renderer.' },
        ],
      }],
    },
  },
  {
    // The shells hold wiring only: the engine is reached through the service, never directly (files on disk
    // through src/core/storage, which the shells need for their own state).
    files: ['app/main/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          SHELL_REACHES_CORE,
          { group: ['**/server/*', '**/server/**', '**/renderer/**'], message: 'The Electron shell imports neither the browser-mode shell nor the renderer.' },
        ],
      }],
    },
  },
  {
    files: ['app/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The browser-mode server runs without Electron.' }],
        patterns: [
          { group: ['electron/*'], message: 'The server runs without Electron.' },
          SHELL_REACHES_CORE,
          { group: ['**/main/*', '**/main/**', '**/renderer/**'], message: 'The browser-mode shell imports neither the Electron shell nor the renderer.' },
        ],
      }],
    },
  },
  {
    // Nothing under src/ reaches up into app/: the bin that adds browser mode lives beside the app.
    files: ['src/cli/**/*.ts', 'src/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The CLI runs without Electron.' }],
        patterns: [
          { group: ['electron/*'], message: 'The CLI runs without Electron.' },
          { group: ['**/app/**', 'app/*'], message: 'Nothing under src/ imports app/*.' },
        ],
      }],
    },
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', '.tmp/', 'test-results/', 'test/fixtures/lint/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  ...layerRules,
  noSpreadCalls,
  storeSelectors,
);
