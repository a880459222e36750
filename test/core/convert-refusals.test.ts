import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert } from '../../src/core/formats/convert.js';
import { parseDocumentText } from '../../src/core/formats/document-file.js';
import { ConversationFileError } from '../../src/core/formats/errors.js';
import { ROOT, tempDir } from '../helpers.js';
import { openAiFineTuneErrors } from '../support/openai-finetune-check.js';
import type { Loose } from '../support/loose.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: tempDir() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const lines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Loose);

/** An Aider chat history of three sessions: one opened and closed without a word, one with a question the model never answered, one full. */
const AIDER = [
  '',
  '# aider chat started at 2025-06-02 08:00:11',
  '',
  '> /home/dev/.local/bin/aider  ',
  '> Aider v0.86.1  ',
  '',
  '# aider chat started at 2025-06-02 08:05:40',
  '',
  '#### Why does the build fail on Windows?  ',
  '',
  '# aider chat started at 2025-06-02 09:30:02',
  '',
  '#### Rename `tally` to `count_votes`.  ',
  '',
  'Renamed it in `votes.py` and its one caller.',
  '',
].join('\n');

/** The same file with only the sessions that hold no reply. */
const AIDER_NO_REPLY = AIDER.slice(0, AIDER.indexOf('# aider chat started at 2025-06-02 09:30:02'));

/** A header and nothing else: the session Aider writes when it is started and quit at once. */
const AIDER_EMPTY = '\n# aider chat started at 2025-06-02 08:00:11\n\n';

/** A WorldSim chat, as its dataset's rows are exported (a JSON list of {messages}): the model speaks under its name, "Claude". */
const WORLDSIM = JSON.stringify([
  { messages: [{ role: 'system', content: 'Assistant is in a CLI mood today. The human is interfacing with the simulator directly.' }, { role: 'user', content: 'ls -la' }, { role: 'Claude', content: 'drwxr-xr-x  2 sim sim 4096 .\n-rw-r--r--  1 sim sim  220 README' }, { role: 'user', content: 'cat README' }, { role: 'Claude', content: 'Welcome to the simulation.' }] },
], null, 2);

describe('a conversion is valid for its target, or it says why not', () => {
  it('into OpenAI fine-tuning JSONL, a conversation with no assistant message is dropped, said so; what is written passes OpenAI’s checks', () => {
    const from = parseDocumentText(AIDER, '.aider.chat.history.md');
    expect(from.doc.conversations.length).toBe(3);
    const out = convert(from, 'openai-chat-jsonl');
    const written = lines(out.text);
    expect(written.length).toBe(1);
    expect(written[0].messages.map((m: Loose) => m.role)).toEqual(['user', 'assistant']);
    expect(out.notes).toContain('2 conversations with no assistant message dropped (a fine-tuning example needs one to learn from)');
    expect(out.problems).toEqual([]);
    expect(openAiFineTuneErrors(out.text)).toEqual([]);
    // The JSON dataset is the same data: the same rule.
    const json = convert(from, 'openai-chat-dataset');
    expect((JSON.parse(json.text) as Loose[]).length).toBe(1);
    expect(json.problems).toEqual([]);
  });

  it('when no conversation has an assistant message, nothing is written: a clear refusal', () => {
    for (const text of [AIDER_NO_REPLY, AIDER_EMPTY]) {
      const from = parseDocumentText(text, '.aider.chat.history.md');
      let caught: unknown;
      try {
        convert(from, 'openai-chat-jsonl', { file: 'chat.md' });
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ConversationFileError);
      expect((caught as Error).message).toMatch(/^chat\.md: nothing to write: no conversation of the file has an assistant message/);
    }
  });

  it('WorldSim’s "Claude" speaks as the assistant: into fine-tuning JSONL its turns are the assistant’s', () => {
    const from = parseDocumentText(WORLDSIM, 'worldsim.json');
    expect(from.codec.id).toBe('openai-chat-dataset');
    const views = from.doc.conversations[0].records.map((r) => from.codec.view(r));
    expect(views.map((v) => v.normalRole)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    const out = convert(from, 'openai-chat-jsonl');
    expect(lines(out.text)[0].messages.map((m: Loose) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    expect(out.problems).toEqual([]);
    expect(openAiFineTuneErrors(out.text)).toEqual([]);
  });

  it('an empty session into a Claude Code session is refused (Claude Code lists no session of no message), Codex too', () => {
    const from = parseDocumentText(AIDER_EMPTY, '.aider.chat.history.md');
    for (const to of ['claude-code', 'codex-rollout']) {
      expect(() => convert(from, to, { file: 'chat.md' }), to).toThrow(/^chat\.md: nothing to write: the conversation has no messages/);
    }
  });

  it('through the real bin: the refusal is one line on stderr, exit code 1, nothing on stdout and no file written', () => {
    const dir = tempDir();
    const file = join(dir, '.aider.chat.history.md');
    writeFileSync(file, AIDER_EMPTY);
    const out = join(dir, 'session.jsonl');
    const r = cli('convert', file, '--to', 'claude-code', '-o', out);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('nothing to write: the conversation has no messages');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(cli('ls', dir, '--json').stdout).not.toContain('session.jsonl');
    const ft = cli('convert', file, '--to', 'openai-chat-jsonl');
    expect(ft.code).toBe(1);
    expect(ft.stdout).toBe('');
    expect(ft.stderr).toContain('nothing to write');
  }, 180_000);
});
