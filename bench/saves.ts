// Saves, for `npm run bench` (or alone: `npx tsx bench/saves.ts [--quick] [--memory] [--writers]`):
// - the memory the document service holds over 1,000 saves of a 40 MB JSON file, each after a one-message edit
//   (it kept a copy of the file per save: +38 MB a save, out of heap at save 102), beside the heap after the open;
// - an agent writing its session while the user saves, 50 trials of each kind (a handle kept open, or opened,
//   appended and closed per line; a line every 20 ms or every second): the agent's lines lost (0 is the goal),
//   the chain's errors and how the saves answered, beside the same save with no writer.
// Never asserts; test/app/save-memory.test.ts and test/app/live-writers.test.ts assert the same with fewer.
import { readFileSync, rmSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { dispatchNow } from '../test/support/current-version.js';
import { followedCount } from '../app/service/editing/carry-over.js';
import { InlineTokenService } from '../app/service/tokens/token-service.js';
import { createRuntime } from '../app/service/runtime.js';
import { sessionText, writerTrial, type TrialOptions } from '../test/support/agent-writer.js';

const ms = (x: number) => (x < 100 ? x.toFixed(1) : x.toFixed(0));
const mb = (x: number) => (x / 1e6).toFixed(0);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

function runtimeIn(dir: string, extra: { lookForWriters?: boolean } = {}) {
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: join(dir, '.history'), listingFile: false, searchIndexFile: false, watch: false, ...extra });
  const call = (channel: string, input: unknown) => dispatchNow(rt.handlers, channel, input);
  return { rt, call };
}

/** 1,000 saves (100 with --quick) of a 40 MB JSON list, each after a one-message edit: the heap and RSS as they go. */
export async function memoryRows(quick: boolean): Promise<string[]> {
  const saves = quick ? 100 : 1000;
  const dir = mkdtempSync(join(tmpdir(), 'ci-saves-'));
  try {
    const n = 100_000;
    const messages = Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'the agent reads the file and plans the change '.repeat(1 + (i % 13))}` }));
    const text = JSON.stringify(messages, null, 2);
    writeFileSync(join(dir, 'big.json'), text);
    const bytes = Buffer.byteLength(text);
    const { rt, call } = runtimeIn(dir);
    const opened = await call('conversation:open', { path: 'big.json', conversation: 0 });
    if (!opened.ok) throw new Error(opened.error.message);
    const afterOpen = heapAfterGc();
    const rssOpen = process.memoryUsage().rss;
    const samples: Array<{ k: number; heap: number; rss: number }> = [];
    let saving = 0;
    for (let k = 1; k <= saves; k++) {
      await call('edit:apply', { path: 'big.json', conversation: 0, command: { type: 'set-text', index: (k * 7919) % n, text: `edit ${k}` } });
      const t = performance.now();
      const r = await call('edit:save', { path: 'big.json' });
      saving += performance.now() - t;
      if (!r.ok) throw new Error(`save ${k}: ${r.error.message}`);
      if (k === 10 || k % Math.max(1, saves / 10) === 0) {
        samples.push({ k, heap: heapAfterGc(), rss: process.memoryUsage().rss });
        // How far it is (on stderr: the table stays clean); a thousand saves of 40 MB take a while.
        process.stderr.write(`saves: ${k} of ${saves}, heap ${mb(samples.at(-1)!.heap)} MB\n`);
      }
    }
    await rt.close();
    const first = samples[0];
    const last = samples[samples.length - 1];
    const perSave = (last.heap - first.heap) / (last.k - first.k);
    return [
      `| ${saves.toLocaleString('en')} saves of a ${mb(bytes)} MB JSON list, each after a one-message edit: heap after GC at save ${first.k} → ${last.k} | ${mb(first.heap)} → ${mb(last.heap)} MB (${(perSave / 1e3).toFixed(0)} kB a save; a copy kept per save would be ${mb(bytes)} MB) | heap after the open: ${mb(afterOpen)} MB | ${(perSave / bytes).toFixed(4)}x the file a save (goal ~0) |`,
      `| the same: RSS at save ${first.k} → ${last.k} (${samples.map((s) => mb(s.rss)).join(', ')} MB) | ${mb(first.rss)} → ${mb(last.rss)} MB | RSS after the open: ${mb(rssOpen)} MB | mean save ${ms(saving / saves)} ms |`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const KINDS: Array<{ label: string; options: TrialOptions; lookForWriters?: boolean }> = [
  { label: 'opened, appended, closed per line, every 20 ms; a message rewritten, 3 saves', options: { mode: 'reopen', everyMs: 20, lines: 60, edit: 'rewrite', saves: 3 } },
  { label: 'opened, appended, closed per line, every 1 s; a message rewritten, 2 saves', options: { mode: 'reopen', everyMs: 1000, lines: 4, edit: 'rewrite', saves: 2 } },
  { label: 'a handle kept open, every 20 ms; a message added, 2 saves', options: { mode: 'held', everyMs: 20, lines: 60, edit: 'add', saves: 2 } },
  { label: 'a handle kept open, every 1 s; a message added, 2 saves', options: { mode: 'held', everyMs: 1000, lines: 4, edit: 'add', saves: 2 } },
  { label: 'a handle kept open, every 20 ms; a message rewritten, 1 save (waits for it to close)', options: { mode: 'held', everyMs: 20, lines: 60, edit: 'rewrite', saves: 1 } },
  { label: 'a handle kept open, every 1 s; a message rewritten, 1 save (waits for it to close)', options: { mode: 'held', everyMs: 1000, lines: 4, edit: 'rewrite', saves: 1 } },
  { label: 'a handle kept open and not looked for (as where the system does not tell), every 20 ms; rewritten, 2 saves', options: { mode: 'held', everyMs: 20, lines: 60, edit: 'rewrite', saves: 2 }, lookForWriters: false },
  { label: 'a handle kept open and not looked for, every 1 s; rewritten, 2 saves', options: { mode: 'held', everyMs: 1000, lines: 4, edit: 'rewrite', saves: 2 }, lookForWriters: false },
  { label: 'Keep mine, opened, appended, closed per line, every 20 ms; a message rewritten, 2 saves', options: { mode: 'reopen', everyMs: 20, lines: 60, edit: 'rewrite', saves: 2, force: true } },
];

/** 50 trials (5 with --quick) of each kind of writer while the user saves a 300-message session. */
export async function writerRows(quick: boolean): Promise<string[]> {
  const trials = quick ? 5 : 50;
  const lines: string[] = [];
  for (const kind of KINDS) {
    const dir = mkdtempSync(join(tmpdir(), 'ci-live-'));
    try {
      const path = 'session.jsonl';
      const file = join(dir, path);
      writeFileSync(file, sessionText(300));
      const { rt, call } = runtimeIn(dir, kind.lookForWriters === false ? { lookForWriters: false } : {});
      // The baseline: the same edit and save with no one writing the file.
      const base: number[] = [];
      for (let k = 0; k < 5; k++) {
        await call('edit:apply', { path, conversation: 0, command: { type: 'set-text', index: 1, text: `alone ${k}` } });
        const t = performance.now();
        await call('edit:save', { path });
        base.push(performance.now() - t);
      }
      let written = 0;
      let lost = 0;
      let chain = 0;
      let editsLost = 0;
      const answers = new Map<string, number>();
      const t = performance.now();
      for (let k = 0; k < trials; k++) {
        const r = await writerTrial(call, file, path, `b${k}`, kind.options, () => followedCount(file) === 0, () => readFileSync(file, 'utf8'));
        written += kind.options.lines;
        lost += r.lost.length;
        chain += r.chain.length;
        editsLost += r.editsLost.length;
        for (const a of r.answers) answers.set(a, (answers.get(a) ?? 0) + 1);
      }
      const elapsed = performance.now() - t;
      process.stderr.write(`writers: ${kind.label}: done\n`);
      await rt.close();
      const said = [...answers].map(([a, n]) => `${n} ${a}`).join(', ');
      lines.push(`| ${kind.label}: ${trials} trials | ${lost} of ${written} agent lines lost, ${chain} chain errors, ${editsLost} saved edits missing; saves: ${said} | the save alone: ${ms(base.sort((a, b) => a - b)[2])} ms | ${ms(elapsed / trials)} ms a trial |`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return lines;
}

export async function savesBench(quick: boolean, which: { memory?: boolean; writers?: boolean } = { memory: true, writers: true }): Promise<string[]> {
  return [...(which.writers ? await writerRows(quick) : []), ...(which.memory ? await memoryRows(quick) : [])];
}

if (process.argv[1]?.endsWith('bench/saves.ts')) {
  const memory = process.argv.includes('--memory');
  const writers = process.argv.includes('--writers');
  console.log('| what | figures | baseline, same run | ratio |');
  console.log('|---|---|---|---|');
  void savesBench(process.argv.includes('--quick'), memory || writers ? { memory, writers } : undefined).then((lines) => lines.forEach((l) => console.log(l)));
}
