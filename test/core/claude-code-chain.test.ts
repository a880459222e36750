import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { chainProblems } from '../../src/core/formats/claude-code/chain.js';
import { duplicateRecord, recordForMessage } from '../../src/core/editing/records.js';
import { applyEdit, type EditCommand } from '../../src/core/editing/commands.js';
import type { Message } from '../../src/core/message.js';
import { FIXTURES } from '../helpers.js';
import { walkSession } from '../support/claude-code-walker.js';

const DIR = join(FIXTURES, 'formats', 'claude-code');
const SESSIONS = ['cart-rewind-compact.jsonl', 'session.jsonl', 'subagents/agent-7f3a91c2.jsonl'];

function open(name: string) {
  const text = readFileSync(join(DIR, name), 'utf8');
  const file = parseDocumentText(text, name);
  return { text, file, records: file.doc.conversations[0].records as Message[] };
}

const save = (name: string, records: readonly unknown[]) => {
  const { file } = open(name);
  return serializeDocument(file.codec, file.doc, [records]);
};
const uuidOf = (r: unknown) => (r as { uuid: string }).uuid;
const parentOf = (text: string, uuid: string) => text.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((v) => v.uuid === uuid)?.parentUuid;

describe('a Claude Code session keeps one parentUuid chain through every edit', () => {
  it.each(SESSIONS)('%s: as read, the chain resumes whole', (name) => {
    expect(walkSession(open(name).text).errors).toEqual([]);
    expect(chainProblems(open(name).text.split('\n').filter(Boolean).map((l) => JSON.parse(l)))).toEqual([]);
  });

  it('deleting a tool exchange relinks the next line to the line before the exchange', () => {
    const { text, records } = open('cart-rewind-compact.jsonl');
    const before = walkSession(text).path;
    // The Bash call (assistant) and its result (user) of the active branch.
    const call = records.findIndex((r) => JSON.stringify(r).includes('"toolu_02Bash","name"'));
    const result = records.findIndex((r) => JSON.stringify(r).includes('"tool_use_id":"toolu_02Bash"'));
    const out = save('cart-rewind-compact.jsonl', records.filter((_, i) => i !== call && i !== result));
    const walk = walkSession(out);
    expect(walk.errors).toEqual([]);
    expect(walk.path).toEqual(before.filter((u) => u !== uuidOf(records[call]) && u !== uuidOf(records[result])));
    // The answer after the exchange now hangs from the prompt that asked for it; the progress line of the
    // deleted call hangs from what is left of the chain.
    const answer = records[result + 1];
    expect(parentOf(out, uuidOf(answer))).toBe(uuidOf(records[call - 1]));
    expect(walkSession(out).errors.filter((e) => e.includes('not in the file'))).toEqual([]);
  });

  it('deleting the message a system line hangs from relinks that line (lines that are not messages too)', () => {
    const { text, records } = open('cart-rewind-compact.jsonl');
    const before = walkSession(text).path;
    const k = records.findIndex((r) => JSON.stringify(r).includes('Done: `total` now sums'));
    const out = save('cart-rewind-compact.jsonl', records.filter((_, i) => i !== k));
    expect(walkSession(out).errors).toEqual([]);
    const system = out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((v) => v.subtype === 'local_command');
    expect(system.parentUuid).toBe(uuidOf(records[k - 1]));
    // Only the deleted line and the system line changed.
    const changed = out.split('\n').filter((l) => !text.split('\n').includes(l));
    expect(changed.length).toBe(1);
    // The compaction boundary still starts the chain resume follows: nothing before it is on the path.
    expect(walkSession(out).path).toEqual(before);
  });

  it('a message added after another is spliced into the chain, complete with the session fields', () => {
    const { records } = open('cart-rewind-compact.jsonl');
    const at = records.findIndex((r) => JSON.stringify(r).includes('Now do the same for the tax line.'));
    const added = recordForMessage(open('cart-rewind-compact.jsonl').file.codec, { role: 'user', content: 'And the shipping line.' }, records[at]);
    const next = [...records.slice(0, at + 1), added, ...records.slice(at + 1)];
    const out = save('cart-rewind-compact.jsonl', next);
    const walk = walkSession(out);
    expect(walk.errors).toEqual([]);
    const line = out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((v) => v.message?.content === 'And the shipping line.');
    expect(line).toMatchObject({ type: 'user', sessionId: '7b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8', cwd: '/home/dev/shop', version: '2.0.42', gitBranch: 'main', isSidechain: false, userType: 'external', parentUuid: uuidOf(records[at]) });
    expect(walk.path.indexOf(line.uuid)).toBe(walk.path.indexOf(uuidOf(records[at])) + 1);
    expect(parentOf(out, uuidOf(records[at + 1]))).toBe(line.uuid);
  });

  it('a message added first becomes the root; the old first line follows it', () => {
    const { records, file } = open('cart-rewind-compact.jsonl');
    const added = recordForMessage(file.codec, { role: 'user', content: 'Context: the shop is in USD.' }, records[0]);
    const out = save('cart-rewind-compact.jsonl', [added, ...records]);
    expect(walkSession(out).errors).toEqual([]);
    const lines = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const line = lines.find((v) => v.message?.content === 'Context: the shop is in USD.');
    expect(line.parentUuid).toBeNull();
    expect(parentOf(out, uuidOf(records[0]))).toBe(line.uuid);
  });

  it('a duplicate gets a uuid of its own and follows the original', () => {
    const { records, file } = open('cart-rewind-compact.jsonl');
    const k = records.findIndex((r) => JSON.stringify(r).includes('Now do the same for the tax line.'));
    const copy = duplicateRecord(file.codec, records[k]);
    const out = save('cart-rewind-compact.jsonl', [...records.slice(0, k + 1), copy, ...records.slice(k + 1)]);
    const walk = walkSession(out);
    expect(walk.errors).toEqual([]);
    expect(new Set(out.split('\n').filter(Boolean).map((l) => JSON.parse(l).uuid).filter(Boolean)).size).toBe(out.split('\n').filter((l) => l.includes('"uuid"')).length);
    const copyUuid = out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((v) => v.message?.content === 'Now do the same for the tax line.').map((v) => v.uuid).find((u) => u !== uuidOf(records[k]));
    expect(walk.path.indexOf(copyUuid)).toBe(walk.path.indexOf(uuidOf(records[k])) + 1);
  });

  it('a move reorders the chain the way the rows now read', () => {
    const { records } = open('subagents/agent-7f3a91c2.jsonl');
    const moved = [records[1], records[0], ...records.slice(2)];
    const out = save('subagents/agent-7f3a91c2.jsonl', moved);
    expect(walkSession(out.replaceAll('"isSidechain":true', '"isSidechain":false')).errors).toEqual([]);
    expect(parentOf(out, uuidOf(records[1]))).toBeNull();
    expect(parentOf(out, uuidOf(records[0]))).toBe(uuidOf(records[1]));
    expect(parentOf(out, uuidOf(records[2]))).toBe(uuidOf(records[0]));
  });

  it('random edits (delete, add, duplicate, move, in any order) always leave a chain that resumes (property)', () => {
    const { file, records } = open('cart-rewind-compact.jsonl');
    const codec = file.codec;
    const step = fc.oneof(
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), role: fc.constantFrom('user', 'assistant'), text: fc.string({ minLength: 1, maxLength: 20 }) }),
      fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 8 }), (steps) => {
        let list: Message[] = records.slice();
        for (const s of steps) {
          const n = list.length;
          let command: EditCommand | undefined;
          if (s.kind === 'delete' && n > 1) command = { type: 'delete', indexes: Array.from({ length: Math.min(s.count, n - 1) }, (_, k) => (s.at + k) % n) };
          if (s.kind === 'insert') command = { type: 'insert', index: s.at % (n + 1), messages: [recordForMessage(codec, { role: s.role, content: s.text }, list[Math.max(0, (s.at % (n + 1)) - 1)]) as Message] };
          if (s.kind === 'duplicate' && n > 0) command = { type: 'insert', index: (s.at % n) + 1, messages: [duplicateRecord(codec, list[s.at % n]) as Message] };
          if (s.kind === 'move' && n > 1) command = { type: 'move', indexes: [s.at % n], to: s.to % n };
          if (command) list = applyEdit(list, command).messages;
        }
        const out = save('cart-rewind-compact.jsonl', list);
        const walk = walkSession(out);
        // Tool pairs can be split by the edits themselves (the app asks before it does that); the chain never is.
        expect(walk.errors.filter((e) => !e.startsWith('tool_result'))).toEqual([]);
        const values = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
        expect(chainProblems(values).filter((p) => !p.text.includes('tool result'))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});

describe('a compaction of a Claude Code session is written the way Claude Code writes its own', () => {
  it('the history stays; a compact boundary (a new root) then the summary, then what was kept; it resumes from the summary', async () => {
    const { file, records, text } = open('cart-rewind-compact.jsonl');
    const { applyPlanToRecords, buildViewSkeleton } = await import('../../src/core/views.js');
    const { compactAllPlan } = await import('../../src/core/window/compaction.js');
    const { getTokenizer } = await import('../../src/core/tokenizer/index.js');
    const codec = file.codec;
    const views = records.map((r) => codec.view(r));
    const skeleton = buildViewSkeleton(views, getTokenizer('gpt-5.4'));
    const plan = compactAllPlan(skeleton, 2);
    const after = applyPlanToRecords(codec, records, views, plan, ['The cart now sums cents; the tax line already did.']);
    const out = save('cart-rewind-compact.jsonl', after);
    // Every line the file had is still there, byte for byte.
    for (const line of text.split('\n').filter(Boolean)) expect(out).toContain(line);
    const added = out.split('\n').filter(Boolean).slice(text.split('\n').filter(Boolean).length).map((l) => JSON.parse(l));
    expect(added[0]).toMatchObject({ type: 'system', subtype: 'compact_boundary', parentUuid: null, logicalParentUuid: uuidOf(records.at(-1)), compactMetadata: { trigger: 'manual', preTokens: plan.totalBefore }, sessionId: '7b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8' });
    expect(added[1]).toMatchObject({ type: 'user', isCompactSummary: true, isVisibleInTranscriptOnly: true, parentUuid: added[0].uuid });
    expect(added[1].message.content).toMatch(/^This session is being continued from a previous conversation that ran out of context\..*\n\nThe cart now sums cents/s);
    // The last two messages, as copies with uuids of their own, chained after the summary.
    expect(added.slice(2).map((l) => l.message.content)).toEqual(records.slice(-2).map((r) => (r as unknown as { message: { content: unknown } }).message.content));
    expect(added[2].parentUuid).toBe(added[1].uuid);
    const walk = walkSession(out);
    expect(walk.errors).toEqual([]);
    expect(walk.path).toEqual(added.map((l) => l.uuid));
  });
});
