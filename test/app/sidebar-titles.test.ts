import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../src/core/formats/all.js';
import { summarizeHead, summarizeWhole } from '../../app/service/listing/file-summary.js';
import { ListingCache } from '../../app/service/listing/listing-cache.js';
import { idNamed } from '../../app/renderer/features/sidebar/Sidebar.js';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { conversationTitles } from '../../src/core/catalog/titles.js';

const fixture = (p: string) => join(FIXTURES, 'formats', p);

describe('a session is listed by what it is about, not its id', () => {
  it("a one-conversation file's title from the file, else its first prompt; a dataset keeps its titles list", () => {
    expect(summarizeWhole(fixture('claude-code/session.jsonl')).title).toBe('Fix flaky date test');
    const gemini = summarizeWhole(fixture('gemini/session-2026-11-30T10-00-3f2a1b9c.json'));
    expect(gemini.title).toBeTruthy();
    expect(gemini.title).not.toContain('\n');
    const codex = fixture('codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl');
    const whole = summarizeWhole(codex);
    expect(whole.title).toBeTruthy();
    // Codex names a session by its folder: the first prompt says more; the context Codex writes as a user
    // message (<environment_context>, AGENTS.md) is not a prompt.
    expect(whole.title).toBe('Why does `cli --version` print nothing?');
    expect(summarizeWhole(fixture('compressed/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl.zst')).title).toBe(whole.title);
    // The head alone (a big file's first listing) says the same.
    expect(summarizeHead(codex, statSync(codex).size).title).toBe(whole.title);
    const export_ = summarizeWhole(fixture('claude-ai/conversations.json'));
    expect(export_.title).toBeUndefined();
    expect(export_.titles?.length).toBe(2);
  });

  it('a file is titled in Files as the session list titles its session: a slash command by its name, not its markup', () => {
    const dir = tempDir();
    const file = join(dir, 's.jsonl');
    const line = (o: object) => JSON.stringify({ sessionId: 's1', cwd: '/w', version: '2.0.0', gitBranch: '', isSidechain: false, userType: 'external', ...o });
    writeFileSync(
      file,
      [
        line({ type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-06-01T10:00:00Z', message: { role: 'user', content: '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>' } }),
        line({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-06-01T10:00:05Z', message: { id: 'm1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Looking at the code.' }], usage: { input_tokens: 10, output_tokens: 5 } } }),
      ].join('\n') + '\n',
    );
    const { codec, doc } = readDocumentFile(file);
    const title = summarizeWhole(file).title;
    expect(title).toBe(conversationTitles(codec, doc)[0]);
    expect(title).not.toContain('<command-');
  });

  it("Codex desktop's context (AGENTS.md without its folder, the skills and plugins it offers) is not the session's title", () => {
    const dir = tempDir();
    const at = (s: number) => `2026-08-06T16:45:${String(s).padStart(2, '0')}.000Z`;
    const user = (s: number, text: string) => ({ timestamp: at(s), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });
    const lines = [
      { timestamp: at(0), type: 'session_meta', payload: { id: '019fd608-da80-7713-bcdd-bc47748af23d', timestamp: at(0), cwd: '/home/dev/shop', originator: 'Codex Desktop', cli_version: '0.146.0', source: 'vscode', model_provider: 'openai' } },
      user(1, '# AGENTS.md instructions\n\n<INSTRUCTIONS>\nKeep answers short.\n</INSTRUCTIONS>'),
      user(2, '<skills_instructions>\n## Skills\nA skill is a folder of instructions.\n</skills_instructions>'),
      user(3, '<recommended_plugins>\nHere is a list of plugins that are available.\n</recommended_plugins>'),
      user(4, '<collaboration_mode>\nDefault\n</collaboration_mode>'),
      user(5, 'Make the refund button work on mobile'),
    ];
    const file = join(dir, 'rollout-2026-08-06T16-45-00-019fd608-da80-7713-bcdd-bc47748af23d.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(summarizeWhole(file).title).toBe('Make the refund button work on mobile');
    // The IDE extension's context before the request (the open files) is not its title either.
    lines[5] = user(5, '# Context from my IDE setup:\n\n## Active file: src/refund.ts\n\n## My request for Codex:\nMake the refund button work on mobile\n');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(summarizeWhole(file).title).toBe('Make the refund button work on mobile');
  });

  it("conversations the tool titles alike (Aider's 'aider chat started at …') are listed by their first prompts", () => {
    const aider = summarizeWhole(join(ROOT, 'examples', 'agents', 'aider', '.aider.chat.history.md'));
    expect(aider.titles).toHaveLength(2);
    for (const t of aider.titles!) expect(t).not.toMatch(/^aider chat started/);
    expect(aider.titles![1]).toBe('Write a short README section for the greet module. Keep it to two sentences.');
    // Titles that differ early stay the file's own.
    expect(summarizeWhole(join(ROOT, 'examples', 'agents', 'chatgpt', 'conversations.json')).titles).toEqual(['Lisbon in March', 'Bird photo']);
  });

  it('names that are ids are told from names that say something', () => {
    expect(idNamed('ses_52b1f0c4effeA7qLm3Rt9Vb2Yz.json')).toBe(true);
    for (const n of ['b7e2c9d4-1a2b-4c3d-9e8f-001122334455.jsonl', 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl', 'session-2026-11-30T10-00-3f2a1b9c.json']) expect(idNamed(n)).toBe(true);
    for (const n of ['coding_session.json', 'trip_planner_tools.json', 'MEMORY.md', '2026-11-30-notes.json', 'conversations.json']) expect(idNamed(n)).toBe(false);
  });

  it('a listing kept by a run that read other formats keeps only its token totals', () => {
    const a = new ListingCache();
    a.setSummary('/x/a.jsonl', 10, 1000, { error: 'not a conversation format this tool knows' }, true);
    a.setTokens('/x/a.jsonl', 10, 1000, 'gpt-4o', 42);
    const snapshot = a.snapshot();
    const same = new ListingCache();
    same.restore(snapshot);
    expect(same.summary('/x/a.jsonl', 10, 1000)).toBeDefined();
    const other = new ListingCache();
    other.restore({ ...snapshot, readers: 'an older set' });
    expect(other.summary('/x/a.jsonl', 10, 1000)).toBeUndefined();
    expect(other.tokens('/x/a.jsonl', 10, 1000, 'gpt-4o')).toBe(42);
  });
});
