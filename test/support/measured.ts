// The real bin run as a child process and measured from outside: its peak memory (what the kernel counts of it,
// threads and all), whether it survives, what it answers. The CLI's peak comes from the child itself as it
// exits (a preload writes process.resourceUsage().maxRSS); a server's from /proc while it runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { ROOT } from '../paths.js';

export const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const PRELOAD = join(ROOT, 'test', 'support', 'max-rss-preload.mjs');

export interface MeasuredRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the whole process, in MiB (undefined when it died before it could say). */
  peakMiB: number | undefined;
}

/** Runs the bin with `args`, its state (token counts) under `stateDir`, and says what it cost at its peak. */
export function runMeasured(args: string[], stateDir: string, cwd = ROOT): Promise<MeasuredRun> {
  const out = join(stateDir, `max-rss-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(PRELOAD).href, BIN, ...args], {
      cwd,
      env: { ...process.env, XDG_STATE_HOME: stateDir, CI_MAX_RSS_FILE: out },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const kb = existsSync(out) ? Number(readFileSync(out, 'utf8')) : undefined;
      resolve({ code, signal, stdout, stderr, peakMiB: kb === undefined ? undefined : kb / 1024 });
    });
  });
}

/** Peak resident memory of a running process, in MiB (Linux's VmHWM: every thread of it counted). */
export function peakMiBOf(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM for process ${pid}`);
  return Number(m[1]) / 1024;
}

export interface Served {
  child: ChildProcess;
  /** Every event pushed so far, in order. */
  events: Array<{ event: string; payload: unknown }>;
  ask<T = unknown>(channel: string, input: unknown): Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>;
  /** Resolves when an event satisfying `test` has come (or has already). */
  until(test: (e: { event: string; payload: unknown }) => boolean, timeoutMs?: number): Promise<void>;
  alive(): boolean;
  peakMiB(): number;
  close(): Promise<void>;
}

/** `serve DIR` from the real bin (browser mode: the document service on its own thread), connected to as the page connects. */
export async function serveMeasured(dir: string, stateDir: string): Promise<Served> {
  if (!existsSync(join(ROOT, 'dist', 'renderer', 'index.html'))) throw new Error('browser mode serves the built app: run npm run build first');
  const child = spawn(process.execPath, [BIN, 'serve', dir], { env: { ...process.env, XDG_STATE_HOME: stateDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out);
      if (m) resolve(new URL(m[0]));
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  const ws = new WebSocket(`ws://127.0.0.1:${url.port}/ws?token=${url.searchParams.get('token')}`, { origin: `http://127.0.0.1:${url.port}`, maxPayload: 1024 * 1024 * 1024 });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const events: Served['events'] = [];
  const waiting = new Map<number, (r: never) => void>();
  const dying = new Map<number, () => void>();
  const watchers = new Set<() => void>();
  let nextId = 1;
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as { id?: number; result?: never; event?: string; payload?: unknown };
    if (msg.event !== undefined) {
      events.push({ event: msg.event, payload: msg.payload });
      for (const w of watchers) w();
    } else if (msg.id !== undefined) {
      waiting.get(msg.id)?.(msg.result!);
      waiting.delete(msg.id);
      dying.delete(msg.id);
    }
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
    for (const d of dying.values()) d();
    for (const w of watchers) w();
  });
  return {
    child,
    events,
    ask: (channel, input) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        if (exited) return reject(new Error(`serve is gone: ${stderr.slice(-2000)}`));
        waiting.set(id, resolve as (r: never) => void);
        dying.set(id, () => reject(new Error(`serve died while answering ${channel}: ${stderr.slice(-2000)}`)));
        ws.send(JSON.stringify({ id, channel, input }));
      }),
    until: (test, timeoutMs = 120_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (events.some(test)) done(resolve);
          else if (exited) done(() => reject(new Error(`serve died: ${stderr.slice(-2000)}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error('no such event in time'))), timeoutMs);
        const done = (then: () => void) => {
          clearTimeout(timer);
          watchers.delete(check);
          then();
        };
        watchers.add(check);
        check();
      }),
    alive: () => !exited && child.exitCode === null && child.signalCode === null,
    peakMiB: () => peakMiBOf(child.pid!),
    close: async () => {
      ws.close();
      if (!exited) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
    },
  };
}
