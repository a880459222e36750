import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText } from '../../src/core/formats/document-file.js';
import { conversationTitles } from '../../src/core/catalog/titles.js';
import { REALFILES } from '../paths.js';

const line = (v: object) => JSON.stringify(v);
const message = (uuid: string, parentUuid: string | null, role: 'user' | 'assistant', text: string) =>
  line({ parentUuid, isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: 's-1', version: '1.0.58', type: role, message: { role, content: text }, uuid, timestamp: '2025-06-20T10:00:00Z' });

function titleOf(lines: string[]): string | undefined {
  const { codec, doc } = parseDocumentText(lines.join('\n') + '\n', 'session.jsonl', 'claude-code');
  return conversationTitles(codec, doc)[0];
}

if (!REALFILES) console.log('a real Claude Code file skipped: no shared realfiles folder beside the checkout (set REALFILES to one)');

describe('a Claude Code session is titled by a summary of its own, not by one of another session', () => {
  const body = [message('u-1', null, 'user', 'Why does the laptop not suspend?'), message('u-2', 'u-1', 'assistant', 'Let me look at the logs.')];

  it('a summary whose leaf is one of its messages titles it; the last such wins', () => {
    expect(titleOf([line({ type: 'summary', summary: 'Suspend debugging', leafUuid: 'u-1' }), line({ type: 'summary', summary: 'Suspend fixed', leafUuid: 'u-2' }), ...body])).toBe('Suspend fixed');
  });

  it("summaries of the sessions before it (a resumed file's head, each pointing into its own file) do not: its first prompt does", () => {
    expect(titleOf([line({ type: 'summary', summary: 'NixOS Config Refactor', leafUuid: 'elsewhere-1' }), ...body])).toBe('Why does the laptop not suspend?');
    expect(titleOf([line({ type: 'summary', summary: 'NixOS Config Refactor', leafUuid: 'elsewhere-1' }), line({ type: 'summary', summary: 'Suspend debugging', leafUuid: 'u-2' }), ...body])).toBe('Suspend debugging');
  });

  it("a slash command in Claude Code's markup titles a session only where no request follows: the one the model was sent before one the tool answered", () => {
    const meta = (uuid: string, parent: string | null, text: string) => line({ ...JSON.parse(message(uuid, parent, 'user', text)), isMeta: true });
    const help = meta('c-1', null, '<command-name>/help</command-name>\n            <command-message>help</command-message>\n            <command-args></command-args>');
    const init = message('c-2', 'c-1', 'user', '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>');
    expect(titleOf([help, init, message('c-3', 'c-2', 'assistant', 'Reading the files.')])).toBe('/init');
    expect(titleOf([help, message('c-3', 'c-1', 'assistant', 'Here is the help.')])).toBe('/help');
    expect(titleOf([help, init, message('c-4', 'c-2', 'user', 'Now fix the suspend on lid close')])).toBe('Now fix the suspend on lid close');
    const review = message('c-5', null, 'user', '<command-name>/review</command-name><command-message>review</command-message><command-args>42</command-args>');
    expect(titleOf([review])).toBe('/review 42');
  });

  it.skipIf(!REALFILES)('the real files: a session of /plugin and /exit is not given the summary of the session its summary points into', () => {
    const file = join(REALFILES!, 'claude-code', 'hillview-2.0.71', '-home-jenkins-Personal-AI-Infrastructure', '7de1dd02-d3f9-49aa-8911-7d5b98666a03.jsonl');
    const text = readFileSync(file, 'utf8');
    const leaves = text.split('\n').filter((l) => l.startsWith('{"type":"summary"')).map((l) => JSON.parse(l).leafUuid as string);
    // As SOURCES.md's file is: its one summary points at a message of another file.
    expect(leaves.length).toBeGreaterThan(0);
    for (const leaf of leaves) expect(text.includes(`"uuid":"${leaf}"`)).toBe(false);
    const { codec, doc } = parseDocumentText(text, file, 'claude-code');
    expect(conversationTitles(codec, doc)[0]).not.toBe('Fixed PAI_DIR placeholder startup hook errors');
  });
});
