import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const NAME = 'cline_task_nov-30-2025_9-15-02-am.md';
const TEXT = readFileSync(join(FIXTURES, 'formats', 'cline', NAME), 'utf8');

/** Cline's own writer (export-markdown.ts): each message its header, content and a blank line; `---` between. */
const clineWrites = (messages: Array<{ role: string; content: string }>) => messages.map((m) => `${m.role === 'user' ? '**User:**' : '**Assistant:**'}\n\n${m.content}\n\n`).join('---\n\n');

describe('a Cline task export (Markdown)', () => {
  const opened = parseDocumentText(TEXT, NAME);
  const records = opened.doc.conversations[0].records;
  const views = records.map((r) => opened.codec.view(r));

  it('is recognised; each message a record, tool calls, results and errors read from their markers', () => {
    expect(opened.codec.id).toBe('cline-task-md');
    expect(views.map((v) => v.normalRole)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(views[1].parts).toEqual([
      { kind: 'text', text: '<thinking>\nThe test probably depends on the machine\'s time zone. I should read the formatter first.\n</thinking>' },
      { kind: 'tool-call', name: 'read_file', arguments: '{"path":"src/date.ts"}' },
    ]);
    // A result ends where Cline's environment details begin.
    expect(views[2].parts.map((p) => p.kind)).toEqual(['tool-result', 'text']);
    expect(views[2].parts[0]).toEqual({ kind: 'tool-result', text: 'export function formatDay(d: Date): string {\n  return d.toISOString().slice(0, 10);\n}' });
    expect(views[3].parts[1]).toMatchObject({ kind: 'tool-call', name: 'replace_in_file' });
    expect(JSON.parse((views[3].parts[1] as { arguments: string }).arguments)).toEqual({ path: 'src/date.ts', diff: "------- SEARCH\n  return d.toISOString().slice(0, 10);\n=======\n  return d.toLocaleDateString('sv-SE');\n+++++++ REPLACE" });
    expect(views[4].parts[0]).toMatchObject({ kind: 'tool-result', isError: true });
  });

  it('is written back byte for byte; a deleted, moved or added message is laid out as Cline writes one', () => {
    const all = opened.doc.conversations.map((c) => c.records);
    expect(serializeDocument(opened.codec, opened.doc, all)).toBe(TEXT);
    const contents = records.map((r) => (r as { content: string }).content);
    const roles = records.map((r) => (r as { role: string }).role);
    const moved = [records[5], ...records.slice(0, 5)];
    expect(serializeDocument(opened.codec, opened.doc, [moved])).toBe(clineWrites([5, 0, 1, 2, 3, 4].map((i) => ({ role: roles[i], content: contents[i] }))));
    const added = opened.codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'Thanks!' }] });
    expect(serializeDocument(opened.codec, opened.doc, [[...records.slice(0, 2), added]])).toBe(clineWrites([...[0, 1].map((i) => ({ role: roles[i], content: contents[i] })), { role: 'user', content: 'Thanks!' }]));
  });

  it('a call converted into it is written as Cline writes one, and reads back as that call', () => {
    const r = opened.codec.fromView({ role: 'assistant', normalRole: 'assistant', parts: [{ kind: 'tool-call', name: 'execute_command', arguments: '{"command":"npm test","requires_approval":"false"}' }] });
    expect((r as { content: string }).content).toBe('[Tool Use: execute_command]\nCommand: npm test\nRequires_approval: false');
    expect(opened.codec.view(r).parts).toEqual([{ kind: 'tool-call', name: 'execute_command', arguments: '{"command":"npm test","requires_approval":"false"}' }]);
  });

  it('an edit of a message’s text keeps its calls and results as written; a message with no text of its own is not edited as text', () => {
    const edited = opened.codec.withText(records[3], 'Use UTC.');
    expect(opened.codec.view(edited).parts).toEqual([{ kind: 'text', text: 'Use UTC.' }, views[3].parts[1]]);
    // A result alone, a call alone: no text to edit (the record is edited whole).
    expect(opened.codec.withText(records[4], 'x')).toBeUndefined();
    expect(opened.codec.withText(records[5], 'x')).toBeUndefined();
    // The text after a result is told from it by Cline's <environment_details>: it must keep that start.
    expect(opened.codec.withText(records[2], 'no longer details')).toBeUndefined();
    expect(opened.codec.view(opened.codec.withText(records[2], '<environment_details>\nnone\n</environment_details>')).parts.map((p) => p.kind)).toEqual(['tool-result', 'text']);
  });

  it('an edit with edge-biased text reads back with that text (as Cline writes it), every other message as it was (property)', () => {
    // The messages that are text alone (a task, an answer without a call).
    const plain = records.map((r, i) => i).filter((i) => views[i].parts.every((p) => p.kind === 'text'));
    fc.assert(
      fc.property(fc.constantFrom(...plain), edgeString, (k, typed) => {
        const edited = opened.codec.withText(records[k], typed);
        let out: string;
        try {
          out = serializeDocument(opened.codec, opened.doc, [records.map((r, i) => (i === k ? edited : r))]);
        } catch (e) {
          // Text that reads back as two messages (it holds a separator and a header) is refused, never written.
          expect(String(e)).toMatch(/would/);
          expect(typed).toMatch(/\n\n---\n\n\*\*(User|Assistant):\*\*\n\n/);
          return;
        }
        const again = parseDocumentText(out, NAME).doc.conversations[0].records as Array<{ content: string }>;
        expect(again.map((r) => r.content)).toEqual(records.map((r, i) => (i === k ? typed : (r as { content: string }).content)));
        expect(out).toBe(clineWrites(records.map((r, i) => ({ role: (r as { role: string }).role, content: i === k ? typed : (r as { content: string }).content }))));
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});
