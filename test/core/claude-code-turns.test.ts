import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocumentText } from '../../src/core/formats/document-file.js';
import { requestBody } from '../../src/core/formats/request-shape.js';
import { anthropicRequestProblems } from '../../src/core/formats/request-validity.js';
import { childrenOf, forkPoints, leavesOf, pathTo, threadsOf } from '../../src/core/tree/message-tree.js';
import { otherBranchRecords } from '../../src/core/tree/thread-paths.js';
import { callsOf, reportedUsage } from '../../src/core/usage.js';
import { claudeCodeSession } from '../support/claude-code-sessions.js';
import type { Loose } from '../support/loose.js';

/** Per message.id (else requestId), the usage of its last line, read straight from the text. */
function lastLineUsage(text: string) {
  const last = new Map<string, Loose>();
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '') continue;
    const v = JSON.parse(raw) as Loose;
    if (v.type !== 'assistant' || !v.message?.usage) continue;
    last.set(v.message.id ?? v.requestId, v.message.usage);
  }
  let input = 0;
  let output = 0;
  for (const u of last.values()) {
    input += u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
    output += u.output_tokens;
  }
  return { calls: last.size, input, output, last };
}

const open = (text: string) => {
  const file = parseDocumentText(text, 'session.jsonl');
  const records = file.doc.conversations[0].records;
  return { file, records, tree: file.codec.tree!(file.doc, 0, records) };
};
const uuidOf = (r: unknown) => (r as { uuid: string }).uuid;

describe('random Claude Code sessions in the shapes Claude Code writes (property)', () => {
  it('give exactly the forks they were made with, each saying the way the session went on', () => {
    fc.assert(
      fc.property(claudeCodeSession, (s) => {
        const { records, tree } = open(s.text);
        const children = childrenOf(tree);
        const found = threadsOf(tree).flatMap((t) => forkPoints(tree, t, children));
        const ways = found.map((f) => f.options.map((o) => uuidOf(records[o])).sort());
        expect(ways.map((w) => w.join(' ')).sort()).toEqual(s.forks.map((w) => w.join(' ')).sort());
        for (const f of found) {
          const k = s.forks.findIndex((w) => w.join(' ') === f.options.map((o) => uuidOf(records[o])).sort().join(' '));
          expect(f.continued >= 0 ? uuidOf(records[f.options[f.continued]]) : undefined).toBe(s.wentOn[k]);
        }
        expect(tree.reattached?.length ?? 0).toBe(s.reattached);
      }),
      { numRuns: 300 },
    );
  });

  it('what the model sees at every leaf is a request the Messages API takes, every result with its call', () => {
    fc.assert(
      fc.property(claudeCodeSession, (s) => {
        const { file, records, tree } = open(s.text);
        const children = childrenOf(tree);
        for (const thread of threadsOf(tree))
          for (const leaf of leavesOf(tree, thread, children)) {
            const path = pathTo(tree, leaf);
            const views = path.map((i) => file.codec.view(records[i]));
            const request = requestBody('anthropic-messages', views);
            const messages = (request.body as { messages: unknown[] }).messages;
            expect(anthropicRequestProblems(messages)).toEqual([]);
            // No result had to be sent as text: each follows its call on the path.
            expect(request.notes?.filter((n) => n.includes('sent as text')) ?? []).toEqual([]);
            const results = views.flatMap((v) => v.parts.filter((p) => p.kind === 'tool-result'));
            const sent = messages.flatMap((m) => (Array.isArray((m as Loose).content) ? (m as Loose).content : [])).filter((b: Loose) => b.type === 'tool_result' && b.content !== '(no result was recorded)');
            expect(sent.length).toBe(results.length);
          }
      }),
      { numRuns: 300 },
    );
  });

  it('usage counts each call once, from its last line; calls on abandoned branches in the total and said apart', () => {
    fc.assert(
      fc.property(claudeCodeSession, (s) => {
        const { file, records, tree } = open(s.text);
        const independent = lastLineUsage(s.text);
        const off = otherBranchRecords(tree);
        const views = records.map((r) => file.codec.view(r));
        const report = reportedUsage(views, (i) => off[i] === 1);
        expect({ calls: report?.calls ?? 0, input: report?.input ?? 0, output: report?.output ?? 0 }).toEqual({ calls: independent.calls, input: independent.input, output: independent.output });
        expect(independent.calls).toBe(s.usage.size);
        // The calls said to be on other branches are those whose lines are on none of the paths the session went on with.
        const branchCalls = callsOf(views, (i) => off[i] === 1).filter((c) => c.usage.branch);
        expect(report?.otherBranches?.calls ?? 0).toBe(branchCalls.length);
        for (const c of branchCalls) expect(off[c.at]).toBe(1);
        // On each path, a call's figures are its last line's.
        for (const thread of threadsOf(tree)) {
          const path = pathTo(tree, leavesOf(tree, thread).at(-1)!, true);
          for (const c of callsOf(path.map((i) => views[i]))) {
            const u = independent.last.get(c.usage.key!)!;
            expect(c.usage.output).toBe(u.output_tokens);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('Claude Code layouts, one by one', () => {
  let n = 0;
  const id = () => `${(Math.imul(++n, 2654435761) >>> 0).toString(16).padStart(8, '0')}-1111-4000-8000-${String(n).padStart(12, '0')}`;
  const common = { userType: 'external', cwd: '/w', sessionId: 's1', version: '2.1.81', timestamp: '2026-03-01T00:00:00.000Z' };
  const line = (parentUuid: string | null, type: string, content: unknown, extra: Record<string, unknown> = {}) => ({ parentUuid, isSidechain: false, ...common, type, message: { role: type, content, ...(type === 'assistant' ? { id: extra.mid, usage: { input_tokens: 1, output_tokens: (extra.out as number) ?? 1 } } : {}) }, uuid: id(), ...extra });
  const text = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const contentOf = (r: unknown) => JSON.stringify((r as Loose).message.content);

  it('2.1.81: result A hangs off call A while call B goes on from A; the path is A, B, result A, result B, then the answer', () => {
    const p = line(null, 'user', 'read both');
    const a = line(p.uuid, 'assistant', [{ type: 'tool_use', id: 'tA', name: 'Read', input: {} }], { mid: 'm1', out: 26 });
    const b = line(a.uuid, 'assistant', [{ type: 'tool_use', id: 'tB', name: 'Read', input: {} }], { mid: 'm1', out: 262 });
    const ra = line(a.uuid, 'user', [{ type: 'tool_result', tool_use_id: 'tA', content: 'A' }]);
    const rb = line(b.uuid, 'user', [{ type: 'tool_result', tool_use_id: 'tB', content: 'B' }]);
    const answer = line(rb.uuid, 'assistant', [{ type: 'text', text: 'both read' }], { mid: 'm2' });
    const { file, records, tree } = open(text([p, a, b, ra, rb, answer]));
    expect(pathTo(tree, tree.active).map((i) => uuidOf(records[i]))).toEqual([p, a, b, ra, rb, answer].map((l) => l.uuid));
    expect(forkPoints(tree, 'main')).toEqual([]);
    // One call, its last line's output: 262, not 26 + 262 nor 26.
    expect(reportedUsage(records.map((r) => file.codec.view(r)))).toMatchObject({ calls: 2, output: 263 });
  });

  it('2.1.150: call B hangs off result A; the model saw both calls, then both results', () => {
    const p = line(null, 'user', 'read both');
    const t = line(p.uuid, 'assistant', [{ type: 'text', text: 'Reading.' }], { mid: 'm1' });
    const a = line(t.uuid, 'assistant', [{ type: 'tool_use', id: 'tA', name: 'Read', input: {} }], { mid: 'm1' });
    const ra = line(a.uuid, 'user', [{ type: 'tool_result', tool_use_id: 'tA', content: 'A' }]);
    const b = line(ra.uuid, 'assistant', [{ type: 'tool_use', id: 'tB', name: 'Read', input: {} }], { mid: 'm1' });
    const rb = line(b.uuid, 'user', [{ type: 'tool_result', tool_use_id: 'tB', content: 'B' }]);
    const { records, tree } = open(text([p, t, a, ra, b, rb]));
    expect(pathTo(tree, tree.active).map((i) => uuidOf(records[i]))).toEqual([p, t, a, b, ra, rb].map((l) => l.uuid));
  });

  it('1.0.x: local commands off one Caveat line follow the line before them; after /clear a new root is a new part, not a fork', () => {
    const caveat = line(null, 'user', 'Caveat: The messages below were generated by the user while running local commands.', { isMeta: true });
    const help = line(caveat.uuid, 'user', '<command-name>help</command-name>');
    const helped = line(help.uuid, 'user', '<local-command-stdout>(no content)</local-command-stdout>');
    const cost = line(caveat.uuid, 'user', '<command-name>cost</command-name>');
    const costed = line(cost.uuid, 'user', '<local-command-stdout>$0.00</local-command-stdout>');
    const prompt = line(costed.uuid, 'user', 'fix it');
    const reply = line(prompt.uuid, 'assistant', [{ type: 'text', text: 'fixed' }], { mid: 'm1' });
    const clear = line(caveat.uuid, 'user', '<command-name>clear</command-name>');
    const cleared = line(clear.uuid, 'user', '<local-command-stdout></local-command-stdout>');
    const next = { ...line(null, 'user', 'a new task'), sessionId: 's2' };
    const { records, tree } = open(text([caveat, help, helped, cost, costed, prompt, reply, clear, cleared, next]));
    expect(forkPoints(tree, 'main')).toEqual([]);
    expect(pathTo(tree, tree.active, true).map((i) => contentOf(records[i]))).toEqual([caveat, help, helped, cost, costed, prompt, reply, clear, cleared, next].map((l) => JSON.stringify(l.message.content)));
    expect(pathTo(tree, tree.active).map((i) => uuidOf(records[i]))).toEqual([next.uuid]);
    // A /clear began that part, not a compaction: said so where the app and show say since when.
    expect([...(tree.restarts ?? [])].map(([r, why]) => [uuidOf(records[r]), why])).toEqual([[next.uuid, 'clear']]);
  });

  it('a session resumed into the same file begins a part a resume began; a compaction begins one of its own', () => {
    const first = line(null, 'user', 'fix it');
    const reply = line(first.uuid, 'assistant', [{ type: 'text', text: 'fixed' }], { mid: 'm1' });
    const resumed = { ...line(null, 'user', 'and the tests'), sessionId: 's2' };
    const answered = { ...line(resumed.uuid, 'assistant', [{ type: 'text', text: 'done' }], { mid: 'm2' }), sessionId: 's2' };
    const compacted = { ...line(null, 'user', 'This session is being continued from a previous conversation.', { isCompactSummary: true }), sessionId: 's2' };
    const { records, tree } = open(text([first, reply, resumed, answered, compacted]));
    expect([...tree.continues.keys()].map((r) => uuidOf(records[r]))).toEqual([resumed.uuid, compacted.uuid]);
    expect([...(tree.restarts ?? [])].map(([r, why]) => [uuidOf(records[r]), why])).toEqual([[resumed.uuid, 'resume']]);
  });

  it('a sub-agent transcript whose lines name parents not in the file opens whole, and says how many were placed after the line before them', () => {
    const lines: object[] = [];
    let parent: string | null = 'aaaaaaaa-2222-4000-8000-000000000000';
    for (let k = 0; k < 35; k++) {
      const l: Loose = { ...line(k % 7 === 3 ? `bbbbbbbb-2222-4000-8000-${String(k).padStart(12, '0')}` : parent, k % 2 === 0 ? 'user' : 'assistant', k % 2 === 0 ? `step ${k}` : [{ type: 'text', text: `done ${k}` }], { mid: `m${k}` }), isSidechain: true, agentId: 'a1b2c3d4e5f60718' };
      lines.push(l);
      parent = l.uuid;
    }
    const { tree } = open(text(lines));
    expect(threadsOf(tree)).toEqual(['side:a1b2c3d4e5f60718']);
    expect(pathTo(tree, leavesOf(tree, 'side:a1b2c3d4e5f60718').at(-1)!)).toHaveLength(35);
    expect(forkPoints(tree, 'side:a1b2c3d4e5f60718')).toEqual([]);
    expect(tree.reattached).toHaveLength(5);
  });
});
