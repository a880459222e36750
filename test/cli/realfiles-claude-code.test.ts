import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';
import { answeredCalls, claudeCodeTranscripts, lastLineUsage, lines, REALFILES, sourcesForks, toolIds, transcriptRecords } from '../support/realfiles.js';

/**
 * Every Claude Code transcript of the shared real files, through the CLI as it ships: the forks SOURCES.md
 * counted (parallel calls, local commands, /clear and old compactions are none), no call left without the
 * result the file holds, and the usage an independent reader sums (each message.id once, its last line).
 */
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const STATE = tempDir();
const files = claudeCodeTranscripts();
if (!REALFILES) console.log('real Claude Code files skipped: no shared realfiles folder beside the checkout (set REALFILES to one)');

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: tempDir(), env: { ...process.env, XDG_STATE_HOME: STATE } });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/**
 * A session's sub-agents in files of their own, as Claude Code lays them out: `<session>/subagents/agent-*.jsonl`
 * (2.1), and `agent-*.jsonl` beside the session whose lines name it (2.0). None for a sub-agent's own file.
 */
function agentFilesOf(file: string): string[] {
  if (/\/agent-[^/]+\.jsonl$/.test(file)) return [];
  const dir = dirname(file);
  const id = basename(file, '.jsonl');
  const listed = (d: string) => (existsSync(join(REALFILES!, d)) ? readdirSync(join(REALFILES!, d)).filter((n) => /^agent-.+\.jsonl$/.test(n)).map((n) => `${d}/${n}`) : []);
  const beside = listed(dir).filter((f) => lines(f).some((v) => v.sessionId === id));
  return [...listed(`${dir}/${id}/subagents`), ...beside];
}

interface Shown {
  forks?: number;
  thread?: string;
  threads?: Array<{ thread: string; file?: string }>;
  messages: Array<{ index: number; record: number; calls?: Array<{ id: string; result: number | null }> }>;
}

describe.skipIf(!REALFILES)('real Claude Code sessions through the CLI', () => {
  it('there are transcripts to read', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
  });

  it.each(files)('%s: the forks SOURCES.md counts, every call with the result the file holds', (file) => {
    const path = join(REALFILES!, file);
    const values = lines(file);
    const answered = answeredCalls(values);
    const records = transcriptRecords(values);
    const shown = cli('show', path, '--json') as Shown;
    expect(shown.forks ?? 0).toBe(sourcesForks(file));
    // Each thread of the file (inline sub-agents too) as the CLI shows it; a thread in a file of its own (subagents/) is that file's.
    const threads = (shown.threads ?? []).filter((t) => !t.file).map((t) => t.thread).filter((t) => t !== shown.thread);
    for (const view of [shown, ...threads.map((t) => cli('show', path, '--json', '--thread', t.replace(/^side:/, '')) as Shown)]) {
      // Read from the file's own lines: each call shown has the result the file holds after it, on the path.
      const answeredAt = new Map<string, number>();
      view.messages.forEach((m, k) => {
        for (const id of toolIds(records[m.record]).answers) answeredAt.set(id, k);
      });
      view.messages.forEach((m, k) => {
        for (const id of toolIds(records[m.record]).calls) if (answered.has(id)) expect(answeredAt.get(id), `${file}: the result of ${id} (row ${m.index}) is shown after it`).toBeGreaterThan(k);
      });
      for (const m of view.messages)
        for (const c of m.calls ?? []) {
          // A call shown without its result is one the file has no result for.
          if (c.result === null) expect(answered.has(c.id), `${file}: ${c.id} (row ${m.index}) has its result in the file`).toBe(false);
          else expect(c.result).toBeGreaterThan(m.index);
        }
      if (view !== shown) expect(view.forks ?? 0).toBe(0);
    }
  }, 240_000);

  it.each(files)('%s: the usage of every call, once, from its last line (its sub-agents\' files too)', (file) => {
    const expected = lastLineUsage([file, ...agentFilesOf(file)].flatMap((f) => lines(f)));
    const out = cli('tokens', join(REALFILES!, file), '--json') as { session?: { calls: number; input: number; output: number; otherBranches: unknown }; reported?: { calls: number; output: number } };
    if (expected.calls === 0) {
      expect(out.session?.calls ?? 0).toBe(0);
      return;
    }
    expect({ calls: out.session?.calls, input: out.session?.input, output: out.session?.output }).toEqual(expected);
  }, 120_000);
});
