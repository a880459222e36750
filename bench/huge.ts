// A 1 GB-class Claude Code session (real text, a 100 MB tool result in the middle), as the app meets it: listed
// with its parts, its first rows from its head, its last part opened without reading the middle, and the memory
// the service holds meanwhile. Printed beside a bare streaming parse of every line in the same run; never asserted.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dispatch } from '../app/service/dispatch.js';
import { createRuntime } from '../app/service/runtime.js';
import type { DirEntry } from '../app/shared/contract.js';
import { claudeCodeLines } from './app.js';
import { loadCorpus, realisticHistory } from './corpus.js';

const ms = (x: number) => (x < 100 ? x.toFixed(1) : x.toFixed(0));
const MB = 1024 * 1024;

/** Writes about `bytes` of a session: a realistic 100 MB block written again and again, its ids made unique. */
function writeSession(file: string, bytes: number): void {
  const block = claudeCodeLines(realisticHistory(210_000, 11));
  const fd = openSync(file, 'w');
  try {
    let written = 0;
    for (let k = 0; written < bytes; k++) {
      const copy = k === 0 ? block : block.replaceAll('"u-', `"c${k}-u-`);
      written += writeSync(fd, copy);
      if (k === 4) {
        // A tool result of 100 MB, as a user's 4.2 GB session had: prose from the corpus, not one repeated letter.
        const { prose } = loadCorpus();
        let text = '';
        for (let i = 0; text.length < 100 * MB; i++) text += prose[i % prose.length] + '\n';
        written += writeSync(fd, JSON.stringify({ type: 'user', uuid: 'huge-result', parentUuid: null, sessionId: 'bench', timestamp: '2026-11-03T00:00:00Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_huge', content: text }] } }) + '\n');
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** The floor any reader pays: every line read and JSON.parse'd, streamed (the file is too big for one string). */
export function streamedParse(file: string): number {
  const t = performance.now();
  const fd = openSync(file, 'r');
  const chunk = Buffer.allocUnsafe(64 * MB);
  let carry = Buffer.alloc(0);
  try {
    for (let at = 0; ; ) {
      const n = readSync(fd, chunk, 0, chunk.length, at);
      if (n <= 0) break;
      at += n;
      const data = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, start)) {
        if (nl > start) JSON.parse(data.toString('utf8', start, nl));
        start = nl + 1;
      }
      carry = Buffer.from(data.subarray(start));
    }
  } finally {
    closeSync(fd);
  }
  return performance.now() - t;
}

export async function hugeBench(quick: boolean): Promise<string[]> {
  const bytes = quick ? 300 * MB : 1024 * MB;
  const dir = mkdtempSync(join(tmpdir(), 'ci-huge-'));
  const file = join(dir, 'session.jsonl');
  const lines: string[] = [];
  try {
    writeSession(file, bytes);
    const size = statSync(file).size;
    const gb = `${(size / 1024 / MB).toFixed(2)} GB`;
    const baseline = streamedParse(file);
    const rssBefore = process.memoryUsage().rss;
    const runtime = createRuntime({ dirs: [dir], mode: 'browser', watch: false, listingFile: false, historyDir: join(dir, '.history') });
    try {
      let entry: DirEntry | undefined;
      const listed = new Promise<void>((resolve) => {
        runtime.onEvent = (event, payload) => {
          if (event !== 'dir:details') return;
          const e = (payload as { entries: DirEntry[] }).entries.find((d) => d.path === 'session.jsonl');
          if (e?.parts) {
            entry = e;
            resolve();
          }
        };
      });
      let t = performance.now();
      await dispatch(runtime.handlers, 'dir:list', {});
      await listed;
      const listMs = performance.now() - t;
      const parts = entry!.parts!;
      // The click: the first part's head is what shows first.
      t = performance.now();
      const peek = await dispatch(runtime.handlers, 'conversation:peek', { path: parts[0].path });
      const first = performance.now() - t;
      if (!peek.ok) throw new Error(peek.error.message);
      t = performance.now();
      const opened = await dispatch(runtime.handlers, 'conversation:open', { path: parts[0].path });
      await dispatch(runtime.handlers, 'conversation:rows', { path: parts[0].path, start: 0, count: 200 });
      const firstPart = performance.now() - t;
      if (!opened.ok) throw new Error(opened.error.message);
      // End: the last part, read without the parts between.
      const last = parts[parts.length - 1].path;
      t = performance.now();
      const end = await dispatch(runtime.handlers, 'conversation:open', { path: last });
      const count = end.ok ? (end.value as { count: number }).count : 0;
      await dispatch(runtime.handlers, 'conversation:rows', { path: last, start: Math.max(0, count - 200), count: 200 });
      const lastPart = performance.now() - t;
      if (!end.ok) throw new Error(end.error.message);
      // The part holding the 100 MB line: read, and the line shown cut with "show all" (the detail pane's answer).
      const withHuge = parts.find((p) => p.title && /^part/.test(p.title) && Number(p.title.match(/(\d+) MB–(\d+) MB/)?.[2]) - Number(p.title.match(/(\d+) MB–/)?.[1]) > 150);
      let hugeRow = '';
      if (withHuge) {
        t = performance.now();
        const o = await dispatch(runtime.handlers, 'conversation:open', { path: withHuge.path });
        if (!o.ok) throw new Error(o.error.message);
        const skeleton = o.value as { count: number; bytes?: number };
        let shown = 0;
        let cut = false;
        for (let i = 0; i < skeleton.count && !cut; i++) {
          const m = await dispatch(runtime.handlers, 'conversation:message', { path: withHuge.path, index: i });
          if (m.ok && (m.value as { truncated?: unknown }).truncated) {
            cut = true;
            shown = JSON.stringify(m.value).length;
          }
        }
        hugeRow = `| the part with the 100 MB line (${withHuge.title}): opened, the line's message answered cut (${(shown / 1024).toFixed(0)} KB sent, "show all" for the rest) | ${ms(performance.now() - t)} | streamed parse of the whole file: ${ms(baseline)} | ${((performance.now() - t) / baseline).toFixed(2)}x |`;
      }
      const rss = process.memoryUsage().rss - rssBefore;
      lines.push(`| ${gb} session: listed with its ${parts.length} parts (dir:list → details) | ${ms(listMs)} | streamed parse of every line: ${ms(baseline)} | ${(listMs / baseline).toFixed(3)}x |`);
      lines.push(`| its first rows, from the first part's head (conversation:peek) | ${ms(first)} | streamed parse of every line: ${ms(baseline)} | ${(first / baseline).toFixed(3)}x (goal ≤ 1 s) |`);
      lines.push(`| the first part whole (skeleton + 200 rows) | ${ms(firstPart)} | streamed parse of every line: ${ms(baseline)} | ${(firstPart / baseline).toFixed(3)}x |`);
      lines.push(`| End: the last part whole and its last 200 rows, the middle not read | ${ms(lastPart)} | streamed parse of every line: ${ms(baseline)} | ${(lastPart / baseline).toFixed(3)}x (goal ≤ 1.5x) |`);
      if (hugeRow) lines.push(hugeRow);
      lines.push(`| the service's memory grown by all that (RSS) | ${(rss / MB).toFixed(0)} MB | the file: ${(size / MB).toFixed(0)} MB | ${(rss / size).toFixed(2)}x (goal ≤ 1.5x) |`);
    } finally {
      await runtime.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
