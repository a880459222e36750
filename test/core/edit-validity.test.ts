import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdit, type EditCommand } from '../../src/core/editing/commands.js';
import { duplicateRecord, recordForMessage } from '../../src/core/editing/records.js';
import { parseDocumentText, writeDocument } from '../../src/core/formats/document-file.js';
import { newProblems, problemsOf } from '../../src/core/formats/validity.js';
import type { Message } from '../../src/core/message.js';
import { FIXTURES } from '../helpers.js';
import { fixtureFiles } from '../support/fixture-files.js';
import { walkSession } from '../support/claude-code-walker.js';

const FORMATS = join(FIXTURES, 'formats');
// The conversation files, as the listing finds them (a tool's sidecar beside one is not).
const all = fixtureFiles(FORMATS);

/**
 * What an edit may leave for the save to ask about: a message between a call and its result, two turns of
 * one side in a row, an empty message. What no edit may ever leave: a broken chain, a uuid twice, a line
 * without its session, a rollout without its session_meta first, a record of the wrong shape.
 */
const STRUCTURAL = /parentUuid|is used by line|cycle|has no sessionId|session_meta|not an object|not a \{type, value\}|is not JSON with|has no "role"/;

describe('random edits on every format keep what its tool needs of the file (property)', () => {
  it.each(all)('%s', (name) => {
    const text = readFileSync(join(FORMATS, name), 'utf8');
    const opened = parseDocumentText(text, name);
    const { codec, doc } = opened;
    // Read-only formats (a trace) are never edited.
    if (doc.conversations.every((c) => c.records.length === 0) || codec.readOnly) return;
    const before = problemsOf(codec, doc);
    const step = fc.oneof(
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), role: fc.constantFrom('user', 'assistant'), text: fc.string({ minLength: 1, maxLength: 30 }) }),
      fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
      fc.record({ kind: fc.constant('text' as const), at: fc.nat(), text: fc.string({ maxLength: 30 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 6 }), fc.nat(), (steps, which) => {
        const c = which % doc.conversations.length;
        let list = doc.conversations[c].records.slice() as Message[];
        for (const s of steps) {
          const n = list.length;
          let command: EditCommand | undefined;
          if (s.kind === 'delete' && n > 1) command = { type: 'delete', indexes: [s.at % n] };
          if (s.kind === 'insert') command = { type: 'insert', index: s.at % (n + 1), messages: [recordForMessage(codec, { role: s.role, content: s.text }, list[Math.max(0, (s.at % (n + 1)) - 1)]) as Message] };
          if (s.kind === 'duplicate' && n > 0) command = { type: 'insert', index: (s.at % n) + 1, messages: [duplicateRecord(codec, list[s.at % n]) as Message] };
          if (s.kind === 'move' && n > 1) command = { type: 'move', indexes: [s.at % n], to: s.to % n };
          if (s.kind === 'text' && n > 0) {
            const edited = codec.withText(list[s.at % n], s.text);
            if (edited !== undefined) command = { type: 'set', items: [{ index: s.at % n, message: edited as Message }] };
          }
          if (command) list = applyEdit(list, command).messages;
        }
        const records = doc.conversations.map((x, i) => (i === c ? list : x.records));
        let written: ReturnType<typeof writeDocument>;
        try {
          written = writeDocument(codec, doc, records, opened.bom);
        } catch (e) {
          // A text the format cannot hold exactly (MEMORY.md keeps content trimmed) is refused, never written changed.
          expect(codec.id, (e as Error).message).toBe('swarms-memory');
          return;
        }
        const again = written.again ?? parseDocumentText(written.text, name, codec.id).doc;
        const added = newProblems(before, problemsOf(codec, again));
        expect(added.filter((p) => STRUCTURAL.test(p.text)).map((p) => p.text)).toEqual([]);
        if (codec.id === 'claude-code') expect(walkSession(written.text).errors.filter((e) => !e.startsWith('tool_result'))).toEqual([]);
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});
