// App figures for `npm run bench`: opening a 100k-message file, and counting all its tokens.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import { dispatch } from '../app/service/dispatch.js';
import { CachedTokenService } from '../app/service/tokens/cached-token-service.js';
import { CountCache } from '../src/core/tokenizer/count-cache.js';
import { TokenPool } from '../app/service/tokens/token-pool.js';
import { WorkerTokenService } from '../app/service/tokens/token-service.js';
import { createRuntime } from '../app/service/runtime.js';
import { createHandlers } from '../app/service/handlers/index.js';
import { serviceWorkerUrl, startBackend } from '../app/service/backend/backend.js';
import { contentText, renderBlock, serializeConversation } from '../src/core/index.js';
import { realisticHistory } from './corpus.js';

const require = createRequire(import.meta.url);
const ms = (x: number) => (x < 100 ? x.toFixed(1) : x.toFixed(0));

/** Median of three peeks, each with a fresh runtime. */
async function firstRowsFromHead(dir: string, path: string): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < 3; run++) {
    const runtime = createRuntime({ dirs: [dir], mode: 'browser' });
    const t = performance.now();
    const peek = await dispatch(runtime.handlers, 'conversation:peek', { path });
    JSON.parse(JSON.stringify(peek));
    samples.push(performance.now() - t);
    if (!peek.ok || !(peek.value as { skeleton?: unknown }).skeleton) throw new Error(`no rows from the head of ${path}`);
    await runtime.close();
  }
  return samples.sort((a, b) => a - b)[1];
}

/** The messages as a Claude Code session: text turns, tool calls as tool_use blocks, results as tool_result. */
export function claudeCodeLines(messages: readonly ReturnType<typeof realisticHistory>[number][]): string {
  let parent: string | null = null;
  return messages
    .map((m, i) => {
      const uuid = `u-${i}`;
      const calls = (m.metadata as { tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> } | undefined)?.tool_calls;
      const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
      const content = calls
        ? calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.function.name, input: JSON.parse(c.function.arguments) }))
        : m.role === 'tool'
          ? [{ type: 'tool_result', tool_use_id: (m.metadata as { tool_call_id?: string }).tool_call_id, content: text }]
          : text;
      const role = m.role === 'assistant' ? 'assistant' : 'user';
      const line = { type: role, uuid, parentUuid: parent, sessionId: 'bench', timestamp: m.timestamp, message: role === 'assistant' ? { id: `msg_${i}`, role, content: typeof content === 'string' ? [{ type: 'text', text: content }] : content } : { role, content } };
      parent = uuid;
      return JSON.stringify(line) + '\n';
    })
    .join('');
}

export async function appBench(quick: boolean): Promise<string[]> {
  const n = quick ? 10_000 : 150_000;
  const dir = mkdtempSync(join(tmpdir(), 'ci-bench-'));
  const file = join(dir, 'big.json');
  const messages = realisticHistory(n, 3);
  writeFileSync(file, serializeConversation(messages, { format: 'json' }));
  const lines: string[] = [];
  try {
    // Baseline: what any viewer must do at least (median of three).
    const base: number[] = [];
    let t = 0;
    for (let run = 0; run < 3; run++) {
      t = performance.now();
      JSON.parse(readFileSync(file, 'utf8'));
      base.push(performance.now() - t);
    }
    const baseline = base.sort((a, b) => a - b)[1];

    // Median of three opens, each with a fresh runtime (nothing cached).
    const samples: number[] = [];
    let payload = 0;
    for (let run = 0; run < 3; run++) {
      const runtime = createRuntime({ dirs: [dir], mode: 'browser' });
      t = performance.now();
      const open = await dispatch(runtime.handlers, 'conversation:open', { path: 'big.json' });
      const rows = await dispatch(runtime.handlers, 'conversation:rows', { path: 'big.json', start: 0, count: 200 });
      // What crosses the socket is serialized and parsed again on the other side: counted too.
      const wire = JSON.stringify(open);
      JSON.parse(wire);
      payload = wire.length + JSON.stringify(rows).length;
      samples.push(performance.now() - t);
      if (!open.ok || !rows.ok) throw new Error('open failed');
      await runtime.close();
    }
    const allRows = samples.sort((a, b) => a - b)[1];
    const size = `${(statSync(file).size / 1e6).toFixed(0)} MB`;
    const head = await firstRowsFromHead(dir, 'big.json');
    lines.push(`| first rows of ${size} (${n.toLocaleString('en')} messages) from its head (conversation:peek) | ${ms(head)} | read + JSON.parse: ${ms(baseline)} | ${(head / baseline).toFixed(2)}x (goal ≤ 0.25x) |`);
    lines.push(`| all rows: open ${size} (skeleton + 200 rows) | ${ms(allRows)} | read + JSON.parse: ${ms(baseline)} | ${(allRows / baseline).toFixed(2)}x (goal ≤ 1.5x); ${(payload / 1e6).toFixed(1)} MB over IPC |`);

    // Requests while the document service (the built one, as shipped) parses the file: app:info is answered
    // by the router, the rest by the main service while the big file's own service reads it.
    {
      writeFileSync(join(dir, 'small.json'), serializeConversation(messages.slice(0, 20), { format: 'json' }));
      const url = serviceWorkerUrl(pathToFileURL(join(import.meta.dirname, '..', 'dist', 'cli.mjs')).href);
      const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history'), tokenCacheDir: join(dir, '.token-cache'), listingFile: join(dir, '.listing.json') }, undefined, url);
      await backend.request('settings:get', {});
      const opening = backend.request('conversation:open', { path: 'big.json' });
      await new Promise((r) => setTimeout(r, 150));
      t = performance.now();
      await backend.request('app:info', {});
      const info = performance.now() - t;
      t = performance.now();
      await backend.request('settings:get', {});
      const service = performance.now() - t;
      t = performance.now();
      await backend.request('conversation:open', { path: 'small.json' });
      const other = performance.now() - t;
      await opening;
      // The first count of the file (a count cache of its own, empty): the rows of the first screen come first.
      const cold = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history'), tokenCacheDir: join(dir, '.token-cache-cold'), listingFile: false }, undefined, url);
      await cold.request('conversation:open', { path: 'big.json' });
      let firstScreen = 0;
      cold.onEvent = (event) => {
        if (event === 'tokens:partial' && firstScreen === 0) firstScreen = performance.now() - t;
      };
      t = performance.now();
      const counted = await cold.request('tokens:count', { path: 'big.json', model: 'gpt-5.4' });
      const wholeCount = performance.now() - t;
      await cold.close();
      if (!counted.ok) throw new Error(`count failed: ${counted.error.message}`);
      await backend.close();
      lines.push(`| first count of ${(statSync(file).size / 1e6).toFixed(0)} MB: the first screen's counts (tokens:partial) | ${ms(firstScreen)} | the whole count: ${ms(wholeCount)} | goal ≤ 300 ms |`);
      lines.push(`| during that parse: app:info answered (the router) | ${ms(info)} | | goal ≤ 50 ms |`);
      lines.push(`| during that parse: settings:get (the main service) | ${ms(service)} | | goal ≤ 50 ms |`);
      lines.push(`| during that parse: another file opened (20 messages) | ${ms(other)} | | goal ≤ 50 ms |`);
    }

    // The same messages as a Claude Code session (JSONL): the baseline parses each line.
    writeFileSync(join(dir, 'big.jsonl'), claudeCodeLines(messages));
    const jsonlBase: number[] = [];
    for (let run = 0; run < 3; run++) {
      t = performance.now();
      for (const line of readFileSync(join(dir, 'big.jsonl'), 'utf8').split('\n')) if (line) JSON.parse(line);
      jsonlBase.push(performance.now() - t);
    }
    const lineBaseline = jsonlBase.sort((a, b) => a - b)[1];
    const jsonlOpens: number[] = [];
    for (let run = 0; run < 3; run++) {
      const runtime = createRuntime({ dirs: [dir], mode: 'browser' });
      t = performance.now();
      const open = await dispatch(runtime.handlers, 'conversation:open', { path: 'big.jsonl' });
      await dispatch(runtime.handlers, 'conversation:rows', { path: 'big.jsonl', start: 0, count: 200 });
      JSON.parse(JSON.stringify(open));
      jsonlOpens.push(performance.now() - t);
      if (!open.ok) throw new Error(`JSONL open failed: ${JSON.stringify(open.error)}`);
      await runtime.close();
    }
    const jsonlMb = `${(statSync(join(dir, 'big.jsonl')).size / 1e6).toFixed(0)} MB`;
    const jsonlFirst = await firstRowsFromHead(dir, 'big.jsonl');
    lines.push(`| first rows of a ${jsonlMb} Claude Code JSONL from its head | ${ms(jsonlFirst)} | read + JSON.parse of each line: ${ms(lineBaseline)} | ${(jsonlFirst / lineBaseline).toFixed(2)}x (goal ≤ 0.25x) |`);
    lines.push(`| all rows: open the ${jsonlMb} JSONL (skeleton + 200 rows) | ${ms(jsonlOpens.sort((a, b) => a - b)[1])} | read + JSON.parse of each line: ${ms(lineBaseline)} | ${(jsonlOpens[1] / lineBaseline).toFixed(2)}x (goal ≤ 1.5x) |`);

    // An agent appends to the session on screen: the change as the app takes it (stat, the new bytes read, the
    // delta of the rows they add with their counts), against a whole read of the file (median of 7 appends).
    // On screen: opened and counted, as the app counts a file it opens (else the first append counts it all).
    {
      const runtime = createRuntime({ dirs: [dir], mode: 'browser', watch: false });
      const open = await dispatch(runtime.handlers, 'conversation:open', { path: 'big.jsonl' });
      if (!open.ok) throw new Error('open failed');
      await dispatch(runtime.handlers, 'tokens:count', { path: 'big.jsonl', conversation: 0, model: 'gpt-5.4' });
      let version = (open.value as { version: number }).version;
      const appends: number[] = [];
      const more = realisticHistory(8, 99);
      for (let k = 0; k < 7; k++) {
        // What a turn of Claude Code writes: one line, its parent the session's last line.
        const m = more[k];
        const role = k % 2 ? 'assistant' : 'user';
        const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
        const line = { type: role, uuid: `appended-${k}`, parentUuid: k === 0 ? `u-${n - 1}` : `appended-${k - 1}`, sessionId: 'bench', timestamp: m.timestamp, message: role === 'assistant' ? { id: `msg_appended_${k}`, role, content: [{ type: 'text', text }] } : { role, content: text } };
        appendFileSync(join(dir, 'big.jsonl'), JSON.stringify(line) + '\n');
        t = performance.now();
        const r = await dispatch(runtime.handlers, 'conversation:update', { path: 'big.jsonl', conversation: 0, since: version, model: 'gpt-5.4' });
        JSON.parse(JSON.stringify(r));
        appends.push(performance.now() - t);
        if (!r.ok || !('delta' in (r.value as object))) throw new Error(`append not a delta: ${JSON.stringify(r).slice(0, 200)}`);
        version = (r.value as { delta: { file: { version: number } } }).delta.file.version;
      }
      await runtime.close();
      const append = appends.sort((a, b) => a - b)[3];
      lines.push(`| a line appended to the ${n.toLocaleString('en')}-line JSONL on screen: its rows and counts (conversation:update) | ${ms(append)} | read + JSON.parse of each line: ${ms(lineBaseline)} | ${(append / lineBaseline).toFixed(3)}x (goal ≤ 50 ms, ≤ 0.05x) |`);
    }

    // An edit of one message, answered with its delta, against the reload it replaces; then the save of that
    // edit, against JSON.stringify + write of the same messages.
    {
      const runtime = createRuntime({ dirs: [dir], mode: 'browser' });
      const opened = await dispatch(runtime.handlers, 'conversation:open', { path: 'big.json' });
      // Each edit names the state of the document it was made on: the one the last answer gave.
      let version = opened.ok ? (opened.value as { editVersion: number }).editVersion : -1;
      const edits: number[] = [];
      for (let k = 0; k < 5; k++) {
        t = performance.now();
        const r = await dispatch(runtime.handlers, 'edit:apply', { path: 'big.json', version, command: { type: 'set-text', index: 100 + k, text: `edited ${k}` } });
        JSON.parse(JSON.stringify(r));
        edits.push(performance.now() - t);
        if (!r.ok || !(r.value as { delta?: unknown }).delta) throw new Error('edit failed');
        version = (r.value as { version: number }).version;
      }
      const edit = edits.sort((a, b) => a - b)[2];
      // What the edit used to cost: the skeleton rebuilt whole (a fresh runtime, the document parsed already not counted).
      const again = createRuntime({ dirs: [dir], mode: 'browser' });
      const reopened = await dispatch(again.handlers, 'conversation:open', { path: 'big.json' });
      await dispatch(again.handlers, 'edit:apply', { path: 'big.json', version: reopened.ok ? (reopened.value as { editVersion: number }).editVersion : -1, command: { type: 'set-text', index: 100, text: 'edited' } });
      t = performance.now();
      await dispatch(createHandlers(again.context), 'conversation:open', { path: 'big.json' });
      const rebuild = performance.now() - t;
      await again.close();
      lines.push(`| edit one message of ${n.toLocaleString('en')}: answer with its delta (median of 5) | ${ms(edit)} | the skeleton rebuilt whole: ${ms(rebuild)} | ${(edit / rebuild).toFixed(3)}x (goal: row and totals ≤ 50 ms) |`);
      await runtime.close();
      // The save as the app makes it: in the service that holds the file (the built one, on its own thread).
      const url = serviceWorkerUrl(pathToFileURL(join(import.meta.dirname, '..', 'dist', 'cli.mjs')).href);
      const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history'), tokenCacheDir: join(dir, '.token-cache'), listingFile: join(dir, '.listing.json') }, undefined, url);
      const shown = await backend.request('conversation:open', { path: 'big.json' });
      const applied = await backend.request('edit:apply', { path: 'big.json', version: shown.ok ? (shown.value as { editVersion: number }).editVersion : -1, command: { type: 'set-text', index: 100, text: 'edited in the service' } });
      t = performance.now();
      const saved = await backend.request('edit:save', { path: 'big.json', version: applied.ok ? (applied.value as { version: number }).version : -1 });
      const save = performance.now() - t;
      await backend.close();
      if (!saved.ok) throw new Error(`save failed: ${saved.error.message}`);
      t = performance.now();
      writeFileSync(join(dir, 'stringified.json'), JSON.stringify(messages, null, 4));
      const stringify = performance.now() - t;
      lines.push(`| save after a one-message edit (${(statSync(file).size / 1e6).toFixed(0)} MB), in the file's service | ${ms(save)} | JSON.stringify + write: ${ms(stringify)} | ${(save / stringify).toFixed(2)}x (goal ≤ 2x) |`);
    }

    // Token counts on the same texts: plain single-thread js-tiktoken, one of our workers, the pool (cold
    // cache), and the pool again after a restart (the count cache on disk).
    const texts = messages.map((m) => contentText(m.content));
    const blocks = messages.map((m, i) => renderBlock(m) + (i < n - 1 ? '\n\n' : ''));
    const job = { model: 'gpt-5.4', parts: texts.map((t) => [t]), blocks };
    const workerUrl = pathToFileURL(join(import.meta.dirname, '..', 'dist', 'token-worker.mjs'));
    const enc = new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
    enc.encode('warm up');
    t = performance.now();
    for (const text of texts) enc.encode(text, [], []);
    for (const block of blocks) enc.encode(block, [], []);
    const plain = performance.now() - t;
    const warmUp = { model: 'gpt-5.4', parts: [['warm up']], blocks: [''] };
    const single = new WorkerTokenService(workerUrl);
    await single.count(warmUp, () => {});
    t = performance.now();
    await single.count(job, () => {});
    const one = performance.now() - t;
    await single.close();
    const pool = new TokenPool(workerUrl, 2);
    // Each worker builds its encoder before timing, as a running app has.
    await Promise.all([0, 1].map(() => pool.count(warmUp, () => {})));
    const cacheDir = join(dir, 'token-cache');
    t = performance.now();
    await new CachedTokenService(pool, new CountCache(cacheDir)).count(job, () => {});
    const cold = performance.now() - t;
    t = performance.now();
    await new CachedTokenService(pool, new CountCache(cacheDir)).count(job, () => {});
    const reopened = performance.now() - t;
    await pool.close();
    const mb = (texts.reduce((a, x) => a + x.length, 0) + blocks.reduce((a, x) => a + x.length, 0)) / 1e6;
    lines.push(`| count content + rendered blocks (${mb.toFixed(0)} MB of real text), one worker | ${ms(one)} | js-tiktoken, one thread: ${ms(plain)} | ${(plain / one).toFixed(2)}x as fast |`);
    lines.push(`| the same, pool of 2 workers, cold count cache | ${ms(cold)} | js-tiktoken, one thread: ${ms(plain)} | ${(plain / cold).toFixed(2)}x as fast (goal ≥ 1.8x) |`);
    lines.push(`| the same after a restart (count cache on disk) | ${ms(reopened)} | the cold count: ${ms(cold)} | ${(reopened / cold).toFixed(3)}x (goal ≤ 0.1x) |`);
    // The bin's `show` of a file counted before (its counts in the cache), against starting node and nothing else.
    const env = { ...process.env, XDG_STATE_HOME: join(dir, 'state') };
    const bin = join(import.meta.dirname, '..', 'bin', 'conversation-inspector.mjs');
    const time = (args: string[]) => {
      const runs: number[] = [];
      for (let k = 0; k < 5; k++) {
        const start = performance.now();
        const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
        runs.push(performance.now() - start);
        if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
      }
      return runs.sort((a, b) => a - b)[2];
    };
    const bare = time(['-e', '']);
    for (const size of [200, 2_000]) {
      const showFile = join(dir, `show-${size}.json`);
      writeFileSync(showFile, serializeConversation(messages.slice(0, size), { format: 'json' }));
      spawnSync(process.execPath, [bin, 'show', showFile], { env, stdio: 'ignore' });
      const show = time([bin, 'show', showFile]);
      lines.push(`| \`show\` of ${size.toLocaleString('en')} messages counted before (the bin, a process each) | ${ms(show)} | \`node -e ''\`: ${ms(bare)} | ${(show / bare).toFixed(2)}x (goal ≤ 3x) |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
