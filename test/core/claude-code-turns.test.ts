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
