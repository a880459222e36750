import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const STATE = tempDir();
const SESSION = join(FIXTURES, 'formats/claude-code/cart-rewind-compact.jsonl');
/** The prompt the session was rewound past (the branch it left) and the one it went on with. */
const LEFT_BRANCH = 'a1000000-0000-4000-8000-000000000006';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: tempDir(), env: { ...process.env, XDG_STATE_HOME: STATE } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Row {
  kind: string;
  turn: number;
  tokens: number;
  cost?: number;
  left?: { index: number; text?: string; role: string };
  right?: { index: number; text?: string; role: string };
  words?: { left: Array<[number, number]>; right: Array<[number, number]> };
}

describe('diff (the bin)', () => {
  it('compares two branches of one session: the start they share, then the two ways side by side in one turn', () => {
    const r = cli('diff', SESSION, '--at', LEFT_BRANCH, '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: Row[]; counts: Record<string, number>; delta: { tokens: number; cost?: number }; left: { tokens: number; cost?: number }; right: { tokens: number; cost?: number }; turns: Array<{ start: number; end: number }> };
    const first = out.rows.findIndex((x) => x.kind !== 'same');
    expect(out.rows.slice(0, first).map((x) => x.kind)).toEqual(['same', 'same', 'same', 'same']);
    const turn = out.turns[out.rows[first].turn];
    const texts = out.rows.slice(turn.start, turn.end).map((x) => `${x.kind} ${(x.left ?? x.right)!.text}`);
    expect(texts[0]).toBe('only-left Sum integer cents then, and add a test.');
    expect(texts).toContain('only-right Use a decimal library instead.');
    // A response written as two lines (one message.id) is one message.
    expect(out.counts.same + out.counts['only-left'] + out.counts.changed).toBe(17);
    expect(out.delta.tokens).toBe(out.right.tokens - out.left.tokens);
    expect(out.delta.cost).toBeCloseTo(out.right.cost! - out.left.cost!, 10);
    expect(out.rows.reduce((n, x) => n + (x.cost ?? 0), 0)).toBeCloseTo(out.delta.cost!, 10);
  });

  it('prints the turns that differ with their token and cost difference, and the totals', () => {
    const r = cli('diff', SESSION, '--at', LEFT_BRANCH);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^--- A: cart-rewind-compact\.jsonl \(main thread\): 17 messages/m);
    expect(r.stdout).toMatch(/^\+\+\+ B: cart-rewind-compact\.jsonl \(the branch through a1000000-0000-4000-8000-000000000006\): 6 messages/m);
    expect(r.stdout).toMatch(/^turn 3 /m);
    expect(r.stdout).toMatch(/^B less A: −11 messages, ≈ −\d+ tokens, −\$[\d.]+ at list prices$/m);
  });

  it('compares two sessions: an edited prompt is one changed message with its words marked, an added reply only in B', () => {
    const dir = tempDir();
    const a = [
      { role: 'System', content: 'You are terse.' },
      { role: 'User', content: 'Plan a trip to Lisbon for  three days.\r\nKeep it cheap.' },
      { role: 'Assistant', content: 'Day 1: Alfama. Day 2: Belém. Day 3: Sintra.' },
    ];
    const b = [a[0], { role: 'User', content: 'Plan a trip to Porto for three days.\nKeep it cheap.' }, a[2], { role: 'User', content: 'And 😀 food?' }, { role: 'Assistant', content: 'Francesinha.' }];
    writeFileSync(join(dir, 'a.json'), JSON.stringify(a));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(b));
    const r = cli('diff', join(dir, 'a.json'), join(dir, 'b.json'), '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: Row[] };
    expect(out.rows.map((x) => x.kind)).toEqual(['same', 'changed', 'same', 'only-right', 'only-right']);
    const changed = out.rows[1];
    const marked = (t: string, ranges: Array<[number, number]>) => ranges.map(([s, e]) => t.slice(s, e));
    expect(marked(changed.left!.text!, changed.words!.left)).toEqual(['Lisbon', '  ', '\r\n']);
    expect(marked(changed.right!.text!, changed.words!.right)).toEqual(['Porto', ' ', '\n']);
    const text = cli('diff', join(dir, 'a.json'), join(dir, 'b.json'));
    expect(text.stdout).toContain('[-Lisbon-]{+Porto+}');
    expect(text.stdout).toContain('2 the same, 1 changed, 0 only in A, 2 only in B');
  });

  it('says two equal sessions are the same', () => {
    const r = cli('diff', SESSION, SESSION);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('The same 17 messages, in the same order.');
  });

  it('refuses what it cannot do in one line: one file without --at, an id the file lacks, a file that is not there', () => {
    const one = cli('diff', SESSION);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('diff of one FILE needs --at ID');
    const id = cli('diff', SESSION, '--at', 'zzzz-not-there');
    expect(id.code).toBe(2);
    expect(id.stderr).toBe('conversation-inspector: --at zzzz-not-there: no message of this conversation has that id (show --json gives each message\'s message_id)\n');
    const missing = cli('diff', SESSION, join(tempDir(), 'nope.jsonl'));
    expect(missing.code).toBe(1);
    expect(missing.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(missing.stderr).not.toContain('    at ');
  });
});
