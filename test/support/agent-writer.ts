/**
 * An agent writing its Claude Code session while the user edits and saves it: a child process that appends a
 * line at a fixed interval, either through a handle it keeps open (`held`) or opening, appending and closing the
 * file for each line (`reopen`). Each line names the one before it (`parentUuid`), as Claude Code's do; the
 * writer reports the uuids it wrote, so a test can tell whether any line was lost. Shared by the tests and the
 * bench (bench/saves.ts), which runs the same trials at their full count.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const SESSION = { sessionId: 'live-session', cwd: '/work/project', version: '2.0.0', gitBranch: 'main', userType: 'external' };

/** A Claude Code session of `n` messages, user and assistant by turns, each line naming the one before. */
export function sessionText(n: number, words = 12): string {
  let parent: string | null = null;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const uuid = `0000${i.toString(16).padStart(4, '0')}-0000-4000-8000-000000000000`;
    const role = i % 2 ? 'assistant' : 'user';
    const text = `Message ${i}: ${'the agent reads the file and plans the change '.repeat(1 + (i % words)).trim()}`;
    const content = role === 'user' ? text : [{ type: 'text', text }];
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, ...SESSION, type: role, message: { role, content }, uuid, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() }));
    parent = uuid;
  }
  return lines.join('\n') + '\n';
}

/** The uuid of a session's last line. */
export function lastUuid(text: string): string {
  const lines = text.trimEnd().split('\n');
  return (JSON.parse(lines[lines.length - 1]) as { uuid: string }).uuid;
}

const SCRIPT = `
  const fs = require('fs');
  const [file, mode, every, count, parent, tag] = process.argv.slice(1);
  const session = ${JSON.stringify(SESSION)};
  const written = [];
  let prev = parent;
  let fd = mode === 'held' ? fs.openSync(file, 'a') : undefined;
  let i = 0;
  const line = () => {
    const uuid = tag + '-' + String(i).padStart(5, '0') + '-4000-8000-000000000000';
    const role = i % 2 ? 'user' : 'assistant';
    const text = 'agent ' + tag + ' line ' + i;
    const v = { parentUuid: prev, isSidechain: false, ...session, type: role, message: { role, content: role === 'user' ? text : [{ type: 'text', text }] }, uuid, timestamp: new Date().toISOString() };
    const bytes = JSON.stringify(v) + '\\n';
    if (fd !== undefined) fs.writeSync(fd, bytes);
    else fs.appendFileSync(file, bytes);
    written.push(uuid);
    prev = uuid;
    if (i === 0) process.stdout.write('first\\n');
    i++;
    if (i < Number(count)) setTimeout(line, Number(every));
    else {
      if (fd !== undefined) fs.closeSync(fd);
      process.stdout.write(JSON.stringify(written) + '\\n');
    }
  };
  line();
`;

export interface Writer {
  child: ChildProcess;
  /** Its first line is written. */
  started: Promise<void>;
  /** Every line is written (and a held file closed): the uuids, in order. */
  done: Promise<string[]>;
}

export function startWriter(file: string, options: { mode: 'held' | 'reopen'; everyMs: number; lines: number; parent: string; tag: string }): Writer {
  const child = spawn(process.execPath, ['-e', SCRIPT, file, options.mode, String(options.everyMs), String(options.lines), options.parent, options.tag], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let onFirst = () => {};
  const started = new Promise<void>((resolve) => (onFirst = resolve));
  const done = new Promise<string[]>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('first\n')) onFirst();
    });
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('[')) return reject(new Error(`the writer exited ${code}: ${out}`));
      resolve(JSON.parse(last) as string[]);
    });
  });
  return { child, started, done };
}

/** What is wrong with a session's chain: a uuid twice, or a line naming a parent the file does not hold. */
export function chainErrors(text: string): string[] {
  const errors: string[] = [];
  const uuids = new Set<string>();
  const parents: Array<[string, string]> = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let v: { uuid?: unknown; parentUuid?: unknown };
    try {
      v = JSON.parse(raw) as typeof v;
    } catch {
      errors.push(`line ${i + 1} is not JSON: ${raw.slice(0, 80)}`);
      return;
    }
    if (typeof v.uuid !== 'string') return;
    if (uuids.has(v.uuid)) errors.push(`uuid ${v.uuid} appears twice`);
    uuids.add(v.uuid);
    if (typeof v.parentUuid === 'string') parents.push([v.uuid, v.parentUuid]);
  });
  for (const [uuid, parent] of parents) if (!uuids.has(parent)) errors.push(`${uuid} names parent ${parent}, which is not in the file`);
  return errors;
}

/** The uuids of `wanted` the session does not hold. */
export function missingLines(text: string, wanted: readonly string[]): string[] {
  return wanted.filter((u) => !text.includes(`"uuid":"${u}"`));
}

type Call = (channel: string, input: unknown) => Promise<{ ok: true; value: unknown } | { ok: false; error: { code: string; message: string } }>;

export interface TrialOptions {
  mode: 'held' | 'reopen';
  everyMs: number;
  lines: number;
  /** The user's edit before each save: a message's text changed (a rewrite), or a message added at the end. */
  edit: 'rewrite' | 'add';
  saves: number;
  /** Keep mine. */
  force?: boolean;
}

export interface TrialResult {
  /** The agent's lines the file does not hold at the end. */
  lost: string[];
  chain: string[];
  /** Each save's answer: ok, appended (in place), or the error's code. */
  answers: string[];
  /** Edits a save answered ok for that the file does not hold. */
  editsLost: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A message added after the last one, as the user adds it after the last row they see: when the agent's lines
 * came in between the look and the add (the add landed among them), it is undone and added again.
 */
async function addAtEnd(call: Call, path: string, text: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const state = await call('edit:state', { path, conversation: 0 });
    const count = state.ok ? (state.value as { count: number }).count : 0;
    const applied = await call('edit:apply', { path, conversation: 0, command: { type: 'insert', index: count, messages: [{ role: 'user', content: text }] } });
    // The agent's lines were taken in between the look and the edit (STALE): looked at again, as the user would.
    if (!applied.ok && applied.error.code === 'STALE') continue;
    if (!applied.ok) throw new Error(`the edit was refused: ${applied.error.message}`);
    if ((applied.value as { count: number }).count === count + 1) return;
    await call('edit:undo', { path, conversation: 0 });
  }
  throw new Error('the session kept growing between a look at it and an add');
}

/**
 * One trial: the document read afresh, an agent writing its session, the user editing and saving while it
 * does; then, once the agent is done and nothing it wrote is still on its way (`settled`), what the file holds.
 */
export async function writerTrial(call: Call, file: string, path: string, tag: string, options: TrialOptions, settled: () => boolean, read: () => string): Promise<TrialResult> {
  await call('edit:revert', { path });
  const writer = startWriter(file, { mode: options.mode, everyMs: options.everyMs, lines: options.lines, parent: lastUuid(read()), tag });
  await writer.started;
  const answers: string[] = [];
  const saved: string[] = [];
  const span = options.everyMs * options.lines;
  for (let s = 0; s < options.saves; s++) {
    const text = `edit ${tag}.${s} by the user`;
    if (options.edit === 'rewrite') {
      let applied = await call('edit:apply', { path, conversation: 0, command: { type: 'set-text', index: 1 + 2 * s, text } });
      for (let again = 0; !applied.ok && applied.error.code === 'STALE' && again < 50; again++) applied = await call('edit:apply', { path, conversation: 0, command: { type: 'set-text', index: 1 + 2 * s, text } });
      if (!applied.ok) throw new Error(`the edit was refused: ${applied.error.message}`);
    } else await addAtEnd(call, path, text);
    await sleep(Math.random() * Math.min(span / options.saves, 2000));
    const r = await call('edit:save', { path, force: options.force ?? false });
    answers.push(r.ok ? ((r.value as { appended?: boolean }).appended ? 'appended' : 'ok') : r.error.code);
    if (r.ok) saved.push(text);
  }
  const uuids = await writer.done;
  for (const until = performance.now() + 60_000; missingLines(read(), uuids).length > 0 && !settled() && performance.now() < until; ) await sleep(20);
  const text = read();
  return { lost: missingLines(text, uuids), chain: chainErrors(text), answers, editsLost: saved.filter((t) => !text.includes(t)) };
}
