import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, readDocumentFile, serializeDocument } from '../../src/core/formats/document-file.js';
import { sentText } from '../../src/core/formats/model.js';
import { hasUnreadPart } from '../../src/core/formats/unread.js';
import { ConversationFileError } from '../../src/core/formats/errors.js';
import { isConversationFileName } from '../../src/core/storage/list-directory.js';
import { FIXTURES, ROOT } from '../helpers.js';

const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));

describe('never silently empty: a record its reader finds no text in, though it holds words, is an unread part', () => {
  it('a message of a shape the reader was not written for shows its raw JSON, counted, and is kept on save', () => {
    const text = JSON.stringify([
      { role: 'user', content: 'Plan the trip.' },
      { role: 'assistant', payload: { say: 'Day one: the old town, then the river walk.' } },
      { role: 'assistant', content: '' },
    ], null, 2);
    const { codec, doc } = parseDocumentText(text, 'chat.json');
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(hasUnreadPart(views[0])).toBe(false);
    expect(hasUnreadPart(views[1])).toBe(true);
    expect(sentText(views[1])).toContain('Day one: the old town');
    // An empty message is empty, not unread.
    expect(hasUnreadPart(views[2])).toBe(false);
    expect(serializeDocument(codec, doc, [doc.conversations[0].records])).toBe(text);
  });

  it('ids, times, paths and enums are not words: a message of metadata only stays empty', () => {
    const plain = parseDocumentText(JSON.stringify([{ role: 'assistant', content: '', id: 'msg_01AbC', created: '2026-01-15 10:00:05', stop: 'end_turn' }]), 'chat.json');
    expect(hasUnreadPart(plain.codec.view(plain.doc.conversations[0].records[0]))).toBe(false);
  });

  it('no message of any fixture written from a public format is read as unread (no false alarms on known shapes)', () => {
    const dir = FIXTURES;
    const flagged: string[] = [];
    let read = 0;
    for (const f of [...files(dir), ...files(join(ROOT, 'examples'))]) {
      if (!isConversationFileName(f)) continue;
      let parsed;
      try {
        parsed = readDocumentFile(f);
      } catch {
        continue; // the malformed fixtures
      }
      read++;
      const { codec, doc } = parsed;
      doc.conversations.forEach((c, k) =>
        c.records.forEach((r, i) => {
          if (codec.view(r).parts.some((p) => p.kind === 'unknown' && p.type === 'unread record')) flagged.push(`${relative(dir, f)} ${k}:${i}`);
        }),
      );
    }
    expect(read).toBeGreaterThan(30);
    expect(flagged).toEqual([]);
  });
});

describe('a file no codec reads says what was tried and what it holds, not "fix it in an editor"', () => {
  it('valid JSON of an unknown shape: well formed, the formats tried and the keys found named', () => {
    let caught: ConversationFileError | undefined;
    try {
      parseDocumentText(JSON.stringify({ sessionId: 'x', messages: [{ kind: 'note' }] }), 'session.json');
    } catch (e) {
      caught = e as ConversationFileError;
    }
    expect(caught).toBeInstanceOf(ConversationFileError);
    expect(caught!.wellFormed).toBe(true);
    expect(caught!.message).toMatch(/expected one of: .*Gemini CLI session/);
    expect(caught!.message).toContain('an object with keys: sessionId, messages');
  });

  it('broken syntax is not well formed: the line and column are the advice', () => {
    let caught: ConversationFileError | undefined;
    try {
      parseDocumentText('[{"role": "user", "content": "hi"},\n {"role": ', 'chat.json');
    } catch (e) {
      caught = e as ConversationFileError;
    }
    expect(caught!.wellFormed).toBe(false);
    expect(caught!.line).toBe(2);
  });
});

describe('a file a codec takes for its own but cannot read names the other formats tried', () => {
  it('a list of objects no chat codec reads', () => {
    let caught: ConversationFileError | undefined;
    try {
      parseDocumentText(JSON.stringify([{ speaker: 'a', said: 'hello there' }]), 'log.json');
    } catch (e) {
      caught = e as ConversationFileError;
    }
    expect(caught!.wellFormed).toBe(true);
    expect(caught!.message).toContain('keys: speaker, said');
  });
});

describe("a tool's own index beside its sessions is not listed as one", () => {
  it("Continue's sessions.json", () => {
    expect(isConversationFileName('/home/u/.continue/sessions/sessions.json', () => '[]')).toBe(false);
    expect(isConversationFileName('/home/u/.continue/sessions/3f1c9a2e-0000-4000-8000-000000000000.json', () => '{')).toBe(true);
  });
});
