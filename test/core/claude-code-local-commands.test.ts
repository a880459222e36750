// A command typed at Claude Code's prompt is kept as tags in a user message; the row reads it as it was typed.
import { describe, expect, it } from 'vitest';
import '../../src/core/formats/all.js';
import { codecById } from '../../src/core/formats/registry.js';
import { tableRow } from '../../app/service/documents/skeleton.js';
import { transcriptView } from '../../app/service/documents/shown-message.js';
import { localCommandText, slashCommandIn } from '../../src/core/formats/claude-code/local-commands.js';

const codec = codecById('claude-code')!;
const user = (content: string, isMeta = true) => ({ type: 'user', sessionId: 's', uuid: 'u1', parentUuid: null, timestamp: '2026-01-01T00:00:00Z', ...(isMeta ? { isMeta } : {}), message: { role: 'user', content } });

describe('commands typed at Claude Code’s prompt', () => {
  it('a slash command reads as typed, with its arguments; one sent to the model is told from one the tool answered', () => {
    expect(tableRow(codec.view(user('<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args></command-args>')), 0).preview).toBe('/model');
    expect(tableRow(codec.view(user('<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>  42\t</command-args>', false)), 0).preview).toBe('/review 42');
    const typed = user('<command-name>/color</command-name>\n<command-message>color</command-message>\n<command-args>blue</command-args>');
    expect((transcriptView(codec.view(typed)).parts[0] as { text: string }).text).toBe('/color blue');
    expect(typed.message.content).toContain('<command-name>');
    expect(slashCommandIn('<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>')).toEqual({ command: '/init', sent: true });
    expect(slashCommandIn('<command-name>/help</command-name>')).toEqual({ command: '/help', sent: false });
  });

  it('a shell command after ! and what it printed; a command’s own output without its tags', () => {
    expect(localCommandText('<bash-input>ls -la</bash-input>')).toBe('! ls -la');
    expect(localCommandText('<bash-stdout>a.txt\nb.txt</bash-stdout><bash-stderr></bash-stderr>')).toBe('a.txt\nb.txt');
    expect(localCommandText('<local-command-stdout>Set model to Opus</local-command-stdout>')).toBe('Set model to Opus');
  });

  it('any other text is left as it is, tags inside it too', () => {
    expect(localCommandText('Why does <command-name> show up in the log?')).toBeUndefined();
    expect(localCommandText('')).toBeUndefined();
    expect(tableRow(codec.view(user('explain <bash-input>x</bash-input> please', false)), 0).preview).toBe('explain <bash-input>x</bash-input> please');
  });
});
