import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { contentText, readConversationFile } from '../../src/core/index.js';
import { listCodecs } from '../../src/core/formats/registry.js';
import { FIXTURES, MALFORMED, ROOT, SWARMS, read, tempDir } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const require = createRequire(import.meta.url);
const encoders = {
  o200k_base: new Tiktoken(require('js-tiktoken/ranks/o200k_base')),
  cl100k_base: new Tiktoken(require('js-tiktoken/ranks/cl100k_base')),
};

/** The CLI keeps token counts under XDG_STATE_HOME: its own here, never the user's. */
const STATE = tempDir();

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: tempDir(), env: { ...process.env, XDG_STATE_HOME: STATE } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What a token count should be, computed straight from js-tiktoken, independent of our tokenizer. */
function expectedTokens(content: unknown, encoding: keyof typeof encoders): number {
  const text = contentText(content);
  return text.trim() === '' ? 0 : encoders[encoding].encode(text, [], []).length;
}

/** The tokens of a message's tool calls (each call's name, a newline, its arguments, counted per call), from js-tiktoken. */
function expectedToolTokens(message: { metadata?: Record<string, unknown> }, encoding: keyof typeof encoders): number {
  const calls = (message.metadata?.tool_calls ?? []) as Array<{ function: { name: string; arguments: string } }>;
  if (calls.length === 0) return 0;
  // Each call counted on its own: its name, a newline, its arguments.
  return calls.reduce((n, c) => n + encoders[encoding].encode(`${c.function.name}\n${c.function.arguments}`, [], []).length, 0);
}

describe('show', () => {
  it.each(readdirSync(SWARMS))('%s: --json gives correct per-message tokens and the total', (file) => {
    const r = cli('show', join(SWARMS, file), '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.model).toBe('gpt-5.4');
    expect(out.encoding).toBe('o200k_base');
    let total = 0;
    out.messages.forEach((m: { index: number; role: string; tokens: number; toolTokens?: number; content: unknown }, i: number) => {
      expect(m.index).toBe(i);
      expect(typeof m.role).toBe('string');
      const original = readConversationFile(join(SWARMS, file)).messages[i];
      const tools = expectedToolTokens(original, 'o200k_base');
      // What the model is sent: the content, and the name and arguments of each tool call.
      expect(m.tokens).toBe(expectedTokens(original.content, 'o200k_base') + tools);
      expect(m.toolTokens ?? 0).toBe(tools);
      total += m.tokens;
    });
    expect(out.totalTokens).toBe(total);
  });

  it('--model takes a model or an encoding name', () => {
    const out = JSON.parse(cli('show', join(SWARMS, 'conversation_demo.json'), '--model', 'cl100k_base', '--json').stdout);
    expect(out.encoding).toBe('cl100k_base');
    expect(out.messages[0].tokens).toBe(6);
    expect(out.messages[1].storedTokens).toBe(6);
    expect(out.messages[1].tokens).toBe(expectedTokens('Answer in one sentence.', 'cl100k_base'));
    const claude = JSON.parse(cli('show', join(SWARMS, 'conversation_demo.json'), '--model', 'claude-opus-4', '--json').stdout);
    expect(claude.approximate).toBe(true);
  });

  it('prints a table with the stored count beside a differing recount', () => {
    const r = cli('show', join(SWARMS, 'conversation_demo.json'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^#\s+ROLE\s+TOKENS\s+STORED\s+TIMESTAMP\s+CONTENT/);
    expect(r.stdout).toMatch(/\n4\s+tool\s+21\s+22\s/);
    expect(r.stdout).toContain('5 messages, 46 tokens (gpt-5.4, o200k_base)');
  });

  it('--conversation N shows that conversation of a file of several alone, numbered as the whole file numbers it; a wrong N is refused', () => {
    const dir = tempDir();
    const file = join(dir, 'data.jsonl');
    const conv = (word: string) => JSON.stringify({ messages: [{ role: 'user', content: `ask ${word}` }, { role: 'assistant', content: `answer ${word}` }] });
    writeFileSync(file, [conv('zero'), conv('one'), conv('two')].join('\n') + '\n');
    const all = JSON.parse(cli('show', file, '--json').stdout);
    const one = JSON.parse(cli('show', file, '--conversation', '1', '--json').stdout);
    expect(one.messages).toEqual(all.messages.filter((m: { conversation: number }) => m.conversation === 1));
    expect(one.messages.map((m: { content: string }) => m.content)).toEqual(['ask one', 'answer one']);
    expect(one.totalTokens).toBe(one.messages.reduce((n: number, m: { tokens: number }) => n + m.tokens, 0));
    const text = cli('show', file, '--conversation', '2').stdout;
    expect(text).toMatch(/^2:0\s+user/m);
    expect(text).not.toContain('ask one');
    // The session list names each as `--conversation` picks it.
    expect(cli('sessions', dir).stdout).toMatch(/ask one\s+2\s+data\.jsonl #1\n/);
    for (const bad of ['3', '-1', '1.5', 'x', '']) {
      const r = cli('show', file, `--conversation=${bad}`);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--conversation takes 0..2, not "${bad}"`);
    }
  });

  it('says one message and one token in the singular', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'one.json'), '[{"role": "user", "content": "hi"}]');
    expect(cli('show', join(dir, 'one.json')).stdout).toContain('1 message, 1 token (gpt-5.4, o200k_base)');
  });

  it.each(readdirSync(MALFORMED))('%s: one line on stderr naming the file, exit 1', (file) => {
    const r = cli('show', join(MALFORMED, file));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(join(MALFORMED, file));
    expect(lines[0]).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/);
  });

  it('names the line and column of a syntax error', () => {
    expect(cli('show', join(MALFORMED, 'truncated.json')).stderr).toContain(`${join(MALFORMED, 'truncated.json')}:23:7: invalid JSON`);
  });
});

describe('output into a pipe', () => {
  it('a reader that stops early (| head) ends the command quietly, without a stack trace', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'long.json'), JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ role: 'user', content: `message ${i}`, timestamp: '2025-01-01T00:00:00' }))));
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" show long.json | head -n 2`], { encoding: 'utf8', cwd: dir });
    expect(r.stdout.split('\n').length).toBe(3);
    expect(r.stderr).toBe('');
  });
});

describe('ls', () => {
  it('lists every conversation file with format, messages and tokens', () => {
    const out = JSON.parse(cli('ls', SWARMS, '--json').stdout);
    expect(out.files.map((f: { path: string }) => f.path)).toEqual(readdirSync(SWARMS).sort());
    const demo = out.files.find((f: { path: string }) => f.path === 'conversation_demo.yaml');
    expect(demo).toMatchObject({ format: 'swarms-yaml', conversations: 1, messages: 5, tokens: 46 });
    expect(demo.bytes).toBe(981);
    expect(typeof demo.modified).toBe('string');
  });

  // A bin started per file, some 70 of them: a minute on a busy 2-core machine.
  it('gives every file the total `show --thread all` gives it: every record of the file (parts counted one by one, on every format)', { timeout: 240_000 }, () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'test', 'fixtures', 'formats'), dir, { recursive: true });
    // Messages of several parts: text beside tool calls, two text blocks, CRLF text.
    const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });
    writeFileSync(join(dir, 'parts.json'), JSON.stringify([{ role: 'user', content: 'Rate?\r\nEUR to PLN.' }, { role: 'assistant', content: 'Checking the rate.', metadata: { tool_calls: [call('c1', 'get_rate', '{"from":"EUR","to":"PLN"}'), call('c2', 'get_rate', '{"from":"PLN","to":"EUR"}')] } }, { role: 'Financial-Analysis-Agent', content: 'Tool Usage: calling fetch_financials', timestamp: '2025-10-01T10:00:03.100200', token_count: 6, metadata: { tool_calls: [call('call_fin1', 'fetch_financials', '{"tickers": ["NVDA", "AMD"], "metric": "gross_margin"}')] } }]));
    writeFileSync(join(dir, 'blocks.json'), JSON.stringify([{ role: 'user', content: [{ type: 'text', text: 'First block.' }, { type: 'text', text: 'Second block.' }] }, { role: 'assistant', content: [{ type: 'text', text: 'Sure.' }, { type: 'tool_use', id: 't1', name: 'Read', input: { path: 'a.ts' } }] }]));
    const out = JSON.parse(cli('ls', dir, '--json').stdout);
    expect(out.files.length).toBeGreaterThan(10);
    for (const f of out.files as Array<{ path: string; tokens: number }>) {
      // A session's --thread all goes on with its sub-agents' own files (each listed apart): the file's own records.
      const all = JSON.parse(cli('show', join(dir, f.path), '--thread', 'all', '--json').stdout) as { messages: Array<{ tokens: number; file?: string }> };
      expect({ path: f.path, tokens: f.tokens }).toEqual({ path: f.path, tokens: all.messages.filter((m) => m.file === undefined).reduce((n, m) => n + m.tokens, 0) });
    }
  });

  it('lists unreadable files with their error instead of skipping them', () => {
    const out = JSON.parse(cli('ls', MALFORMED, '--json').stdout);
    const names = out.files.map((f: { path: string }) => f.path).sort();
    expect(names).toEqual(['alias_bomb.yaml', 'bad_indent.yaml', 'binary.json', 'empty.json', 'missing_role.json', 'not_a_list.json', 'truncated.json']);
    for (const f of out.files) expect(typeof f.error).toBe('string');
    expect(out.files.find((f: { path: string }) => f.path === 'truncated.json')).toMatchObject({ errorLine: 23, errorColumn: 7 });
    const table = cli('ls', MALFORMED);
    expect(table.code).toBe(0);
    expect(table.stderr).toContain('error: truncated.json:23:7: invalid JSON');
  });

  it('defaults to ./conversations and fails clearly when a directory is missing', () => {
    const r = cli('ls');
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('conversation-inspector: no DIR given and no ./conversations folder here: conversation-inspector ls DIR (a folder of sessions, ~/.claude/projects say)');
    // A folder named is said by its name.
    expect(cli('ls', 'no-such-folder').stderr.trim()).toBe('conversation-inspector: no-such-folder: no such directory');
  });

  it('a FILE where a folder is read says it is a file and which command reads one; a mistake in the options in plain words', () => {
    const file = join(FIXTURES, 'formats', 'codex', 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl');
    for (const command of ['ls', 'usage', 'sessions']) {
      const r = cli(command, file);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`conversation-inspector: ${file} is a file: ${command} reads every session under a folder (show FILE reads one file)`);
    }
    expect(cli('show', file, '--bogus').stderr.split('\n')[0]).toBe('conversation-inspector: --bogus is not an option (a value that starts with "-" goes after "--")');
    expect(cli('usage', FIXTURES, '--by').stderr.split('\n')[0]).toBe('conversation-inspector: --by needs a value');
    expect(cli('ls', FIXTURES, '--json=yes').stderr.split('\n')[0]).toBe('conversation-inspector: --json takes no value');
  });
});

describe('tokens', () => {
  it('gives totals by role and category and the category counts', () => {
    const out = JSON.parse(cli('tokens', join(SWARMS, 'conversation_demo.json'), '--json').stdout);
    expect(out.byRole).toEqual({ System: 6, User: 5, user: 7, assistant: 7, tool: 21 });
    expect(out.byCategory).toEqual({ '(none)': 32, input: 7, output: 7 });
    expect([out.input_tokens, out.output_tokens, out.total_tokens]).toEqual([7, 7, 14]);
    expect(out.totalTokens).toBe(46);
    expect(cli('tokens', join(SWARMS, 'conversation_demo.json')).stdout).toContain('input_tokens 7, output_tokens 7, total_tokens 14');
  });
});

describe('convert', () => {
  it('converts JSON to YAML on stdout and YAML to JSON in a file', () => {
    const yaml = cli('convert', join(SWARMS, 'conversation_edge.json'), '--to', 'yaml');
    expect(yaml.code).toBe(0);
    const original = JSON.parse(read(join(SWARMS, 'conversation_edge.json')));
    expect(YAML.parse(yaml.stdout)).toEqual(original);
    const out = join(tempDir(), 'out.json');
    const r = cli('convert', join(SWARMS, 'conversation_demo.yaml'), '--to', 'json', '-o', out);
    expect(r.code).toBe(0);
    expect(JSON.parse(read(out))).toEqual(JSON.parse(read(join(SWARMS, 'conversation_demo.json'))));
  });

  it('keeps a wrapper a wrapper', () => {
    const r = cli('convert', join(SWARMS, 'legacy_wrapper.json'), '--to', 'yaml');
    expect(YAML.parse(r.stdout).metadata.name).toBe('research-run');
  });

  it('refuses a missing or unknown --to', () => {
    expect(cli('convert', join(SWARMS, 'conversation_demo.json')).code).toBe(2);
    expect(cli('convert', join(SWARMS, 'conversation_demo.json'), '--to', 'xml').code).toBe(2);
  });
});

describe('usage', () => {
  it('bad usage exits 2 with the usage text', () => {
    for (const args of [['bogus'], ['show'], ['show', 'a', 'b'], ['show', 'x.json', '--nope'], []]) {
      const r = cli(...args);
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toContain('Usage: conversation-inspector');
    }
  });

  it('--help exits 0', () => {
    const r = cli('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: conversation-inspector');
  });

  it('--help lists every command the bin runs and every format the registry holds, loading no format reader', () => {
    const log = join(tempDir(), 'loaded.txt');
    const r = spawnSync(process.execPath, ['--import', join(ROOT, 'test', 'support', 'loaded-modules-preload.mjs'), BIN, '-h'], { encoding: 'utf8', cwd: tempDir(), env: { ...process.env, XDG_STATE_HOME: STATE, CI_LOADED_FILE: log } });
    expect(r.status, r.stderr).toBe(0);
    // Every command main.ts runs, and browser mode's, which the bin adds.
    const commands = [...read(join(ROOT, 'src', 'cli', 'main.ts')).matchAll(/^\s*case '([a-z-]+)':/gm)].map((m) => m[1]);
    expect(commands.length).toBeGreaterThan(10);
    for (const command of [...commands, 'serve']) expect(r.stdout, command).toMatch(new RegExp(`^  ${command}(?: |$)`, 'm'));
    const formats = r.stdout.slice(r.stdout.indexOf('Formats (--format ID, --to ID):'), r.stdout.indexOf('\n\nOptions:'));
    expect(formats.match(/[a-z0-9-]+(?=,|$)/g)).toEqual(listCodecs().map((c) => c.id));
    // The usage text is all it needs: no package (no reader of a format, no SQLite, no tokenizer) is loaded.
    expect(read(log).split('\n').filter((l) => l.includes('/node_modules/') || l.startsWith('require:'))).toEqual([]);
  });

  it('is installed as a bin: npx conversation-inspector works', () => {
    const r = spawnSync('npx', ['--no-install', 'conversation-inspector', '--help'], { encoding: 'utf8', cwd: ROOT });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: conversation-inspector');
  });

  it('keeps counts between runs in a private file, and a damaged one only costs a recount', () => {
    const state = tempDir();
    const run = () => spawnSync(process.execPath, [BIN, 'show', join(SWARMS, 'conversation_demo.json'), '--json'], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: state } });
    const first = run();
    expect(first.status).toBe(0);
    const file = join(state, 'conversation-inspector', 'token-cache', 'o200k_base.counts');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(file).size % 24).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(0);
    // The second run reads its counts from the file; the figures are the same.
    expect(run().stdout).toBe(first.stdout);
    const size = statSync(file).size;
    writeFileSync(file, Buffer.alloc(size, 7));
    expect(run().stdout).toBe(first.stdout);
    // The damaged file was rewritten with the counts made again: the next run reads them.
    expect(statSync(file).size).toBe(size);
    expect(run().stdout).toBe(first.stdout);
  });
});

describe('a Gemini CLI session, as the real bin reads it', () => {
  const DIR = join(ROOT, 'test', 'fixtures', 'formats', 'gemini');
  const FILE = join(DIR, 'session-2026-11-30T10-00-3f2a1b9c.json');

  it('ls lists it, show gives each turn with its thoughts, calls and results, search finds a tool result', () => {
    const ls = JSON.parse(cli('ls', DIR, '--json').stdout) as { files: Array<{ path: string; format: string; messages: number }> };
    expect(ls.files.find((f) => f.path === 'session-2026-11-30T10-00-3f2a1b9c.json')).toEqual(expect.objectContaining({ format: 'gemini-cli', messages: 6 }));
    expect(ls.files.find((f) => f.path === 'chat-history.json')).toEqual(expect.objectContaining({ format: 'gemini-contents', messages: 8 }));
    const show = JSON.parse(cli('show', FILE, '--json').stdout) as { messages: Array<{ role: string; normalRole: string; content: string; reasoningTokens?: number; meta?: boolean }> };
    expect(show.messages.map((m) => [m.role, m.normalRole])).toEqual([
      ['user', 'user'],
      ['gemini', 'assistant'],
      ['gemini', 'assistant'],
      ['info', 'other'],
      ['user', 'user'],
      ['gemini', 'assistant'],
    ]);
    expect(show.messages[1].reasoningTokens).toBeGreaterThan(0);
    expect(show.messages[1].content).toContain('npx eslint src/date.ts');
    expect(show.messages[3].meta).toBe(true);
    const search = cli('search', DIR, 'never used');
    expect(search.stdout).toContain("'offset' is assigned a value but never used");
    const tokens = cli('tokens', FILE);
    expect(tokens.stdout).toMatch(/Reported by the API \(3 model calls\)/);
    // Each model at its own row of the dated table, whose page the output names.
    expect(tokens.stdout).toMatch(/^Cost: \$0\.015 at list prices \(\d{4}-\d{2}-\d{2}\)$/m);
    expect(tokens.stdout).toContain('gemini-2.5-flash (Gemini 2.5 Flash): https://ai.google.dev/gemini-api/docs/pricing, read ');
  });
});

describe('a session as its threads', () => {
  const SESSION = join(ROOT, 'test', 'fixtures', 'formats', 'claude-code', 'session.jsonl');
  const json = (...args: string[]) => JSON.parse(cli('show', SESSION, '--json', ...args).stdout);

  it('show gives the main thread since its last compaction, as the app does, and says what else there is', () => {
    const r = cli('show', SESSION);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('● Compacted · manual · 18,230 tokens before');
    expect(r.stderr).toMatch(/note: main thread since its last compaction: 2 of the session's 11 messages; 7 messages before its last compaction \(--whole\); 1 sub-agent thread \(--thread \w+\)/);
    const current = json();
    expect(current.thread).toBe('main');
    expect(current.messages.map((m: { record: number }) => m.record)).toEqual([9, 10]);
    const whole = json('--whole');
    expect(whole.messages.map((m: { index: number }) => m.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(whole.messages.some((m: { sidechain?: boolean }) => m.sidechain)).toBe(false);
    const side = current.threads.find((t: { thread: string }) => t.thread !== 'main').thread.replace('side:', '');
    const sub = json('--thread', side);
    expect(sub.messages.length).toBeGreaterThan(0);
    expect(sub.messages.every((m: { sidechain?: boolean }) => m.sidechain)).toBe(true);
    expect(json('--thread', 'all').messages).toHaveLength(11);
  });

  it('a part a /clear began says /clear, not compaction (Claude Code 1.0.x wrote the new session into the same file)', () => {
    const dir = tempDir();
    const base = { isSidechain: false, userType: 'external', cwd: '/w', version: '1.0.24', timestamp: '2025-06-20T23:00:00.000Z' };
    const lines = [
      { ...base, parentUuid: null, sessionId: 's1', type: 'user', message: { role: 'user', content: 'fix it' }, uuid: 'u1' },
      { ...base, parentUuid: 'u1', sessionId: 's1', type: 'assistant', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-20250514', content: [{ type: 'text', text: 'fixed' }], usage: { input_tokens: 3, output_tokens: 2 } }, uuid: 'u2' },
      { ...base, parentUuid: 'u2', sessionId: 's1', type: 'user', message: { role: 'user', content: '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>' }, uuid: 'u3' },
      { ...base, parentUuid: null, sessionId: 's2', type: 'user', message: { role: 'user', content: 'a new task' }, uuid: 'u4' },
    ];
    const file = join(dir, 'cleared.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = cli('show', file);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/note: main thread since its last \/clear: 1 of the session's 4 messages; 3 messages before its last \/clear \(--whole\)/);
    expect(r.stderr).not.toMatch(/compaction/);
  });

  it('tokens and plan work on the same path', () => {
    const tokens = JSON.parse(cli('tokens', SESSION, '--json').stdout);
    expect(tokens.messages).toBe(2);
    const plan = JSON.parse(cli('plan', SESSION, '--strategy', 'truncate', '--json').stdout);
    expect(plan.messages).toHaveLength(2);
  });

  it('tokens of a part with no model call since its compaction say so, not input_tokens 0', () => {
    const r = cli('tokens', SESSION);
    expect(r.stdout).not.toContain('input_tokens 0');
    expect(r.stdout).toMatch(/No model call reported usage in what is shown \(the file reports 3 calls in all, its sub-agents' too: --whole/);
    expect(cli('tokens', SESSION, '--whole').stdout).toMatch(/Reported by the API \(2 model calls\)/);
  });

  it("a sub-agent's own file (Claude Code's subagents/agent-*.jsonl) is shown, counted, planned and exported as its thread, by default", () => {
    const AGENT = join(ROOT, 'examples', 'agents', 'claude-code', 'b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13', 'subagents', 'agent-a3f9e1d2b7c40815.jsonl');
    const shown = JSON.parse(cli('show', AGENT, '--json').stdout);
    expect(shown.messages.length).toBeGreaterThan(2);
    expect(shown.thread).toBe('side:a3f9e1d2b7c40815');
    expect(JSON.parse(cli('show', AGENT, '--thread', 'a3f9e1d2b7c40815', '--json').stdout).messages).toEqual(shown.messages);
    expect(cli('tokens', AGENT).code).toBe(0);
    expect(cli('plan', AGENT, '--strategy', 'truncate').code).toBe(0);
    const r = cli('export', AGENT, '--to', 'md');
    expect(r.code, r.stderr).toBe(0);
    // A thread it does not have is refused with the ones it has.
    const bad = cli('show', AGENT, '--thread', 'main');
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')[0]).toBe('conversation-inspector: --thread takes all or one of a3f9e1d2b7c40815; not "main"');
  });

  it('tokens of a Copilot CLI session whole are its run’s totals, as the session list adds them up', () => {
    const COPILOT = join(ROOT, 'examples', 'agents', 'copilot-cli', 'events.jsonl');
    // The file's session.shutdown: 7 requests, 118,204 in (96,320 of them cached), 952 out in all.
    expect(cli('tokens', COPILOT, '--whole').stdout).toMatch(/^Reported by the API \(7 model calls\): 118,204 in \(96,320 of them read from the cache\) · 952 out$/m);
    const out = JSON.parse(cli('tokens', COPILOT, '--whole', '--json').stdout);
    expect([out.input_tokens, out.output_tokens]).toEqual([118_204, 952]);
    // A shared transcript of the session says the same figures and cost.
    const cost = /^Cost: (\$\S+)/m.exec(cli('tokens', COPILOT, '--whole').stdout)?.[1];
    const md = cli('export', COPILOT, '--to', 'md', '--no-redact');
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toMatch(/^- Reported by the API: 7 model calls, 118,204 in \(96,320 of them read from the cache\) · 952 out$/m);
    expect(cost).toBeDefined();
    expect(md.stdout).toContain(`- Cost: ${cost} at list prices`);
    // Titled by the name Copilot CLI keeps beside it (workspace.yaml), as the session list titles it.
    const dir = join(tempDir(), 'session-state', 'b2c7');
    mkdirSync(dir, { recursive: true });
    cpSync(COPILOT, join(dir, 'events.jsonl'));
    writeFileSync(join(dir, 'workspace.yaml'), 'id: 5c1e7a42-9d3b-4f6e-b8a1-2f0c4d6e8a13\ncwd: /work/shop\nname: Set up the shop project\nuser_named: false\n');
    expect(cli('export', join(dir, 'events.jsonl'), '--to', 'md', '--no-redact').stdout.split('\n')[0]).toBe('# Set up the shop project');
  });

  it('tokens of a file that records output but no input per call say the input is not recorded, never 0', () => {
    // A run killed before it wrote its totals: its calls record their output alone.
    const COPILOT = join(tempDir(), 'events.jsonl');
    writeFileSync(COPILOT, readFileSync(join(ROOT, 'examples', 'agents', 'copilot-cli', 'events.jsonl'), 'utf8').split('\n').filter((l) => !l.includes('"type":"session.shutdown"')).join('\n'));
    const text = cli('tokens', COPILOT, '--whole').stdout;
    expect(text).toMatch(/^Reported by the API \(7 model calls\): input not recorded · 550 out$/m);
    expect(text).toMatch(/^Cost: \$\S+ at list prices \([\d-]+\), at least: 7 calls record no input$/m);
    expect(text).toContain('input_tokens not recorded, output_tokens 550 (as the API reported them)');
    const out = JSON.parse(cli('tokens', COPILOT, '--whole', '--json').stdout);
    expect([out.input_tokens, out.output_tokens, out.total_tokens]).toEqual([null, 550, null]);
    expect([out.reported.calls, out.reported.inputCalls, out.reported.outputCalls, out.reported.cost.missingInput]).toEqual([7, 0, 7, 7]);
    // One call is one call.
    expect(cli('tokens', join(ROOT, 'examples', 'agents', 'sillytavern', 'Quartermaster - 2025-11-30@19h02m11s.jsonl')).stdout).toMatch(/^Reported by the API \(1 model call\): input not recorded · 27 out$/m);
  });

  it('--at shows the branch through a message: a rewind’s abandoned path, then back past the compaction', () => {
    const CART = join(ROOT, 'test', 'fixtures', 'formats', 'claude-code', 'cart-rewind-compact.jsonl');
    const current = cli('show', CART);
    // The note names the other branch's first message.
    const other = /--at (\S+) shows one/.exec(current.stderr)?.[1];
    expect(other).toBeDefined();
    const abandoned = JSON.parse(cli('show', CART, '--json', '--at', other!).stdout);
    expect(abandoned.messages.map((m: { message_id?: string }) => m.message_id)).toContain(other);
    const back = /--at (\S+) shows one/.exec(cli('show', CART, '--at', other!).stderr)?.[1];
    const again = JSON.parse(cli('show', CART, '--json', '--at', back!, '--whole').stdout);
    expect(again.messages.length).toBe(JSON.parse(cli('show', CART, '--json', '--whole').stdout).messages.length);
    expect(cli('show', CART, '--at', 'nope-nope').stderr.trim().split('\n')).toHaveLength(1);
  });

  it('plan --help gives plan’s lines, the strategies and the options, with --thread, --whole and --at', () => {
    const r = cli('plan', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: conversation-inspector plan FILE/);
    expect(r.stdout).toContain('--at ID');
    expect(r.stdout).toContain('Strategies:');
    expect(r.stdout).not.toContain('search DIR QUERY');
  });

  it('a bad value is one line, not the whole usage', () => {
    for (const args of [['show', SESSION, '--thread', 'nobody'], ['plan', SESSION, '--strategy', 'bogus'], ['show', SESSION, '--format', 'bogus']]) {
      const r = cli(...args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('usage DIR', () => {
  it('adds up reported usage by tool; input that no call records is said so, never 0 (a Copilot CLI run killed before its shutdown totals)', () => {
    const dir = tempDir();
    const session = join(dir, 'copilot', 'session-state', '5c1e7a42-9d3b-4f6e-b8a1-2f0c4d6e8a13');
    mkdirSync(session, { recursive: true });
    // Its events up to the shutdown, which alone holds the input: the run was killed.
    const events = readFileSync(join(ROOT, 'test', 'fixtures', 'formats', 'copilot-cli', 'events.jsonl'), 'utf8').split('\n');
    writeFileSync(join(session, 'events.jsonl'), events.filter((l) => !l.includes('"type":"session.shutdown"')).join('\n'));
    cpSync(join(ROOT, 'test', 'fixtures', 'formats', 'claude-code', 'session.jsonl'), join(dir, 'claude', 'session.jsonl'), { recursive: true });
    const r = cli('usage', dir, '--by', 'tool');
    expect(r.code, r.stderr).toBe(0);
    const row = (tool: string) => r.stdout.split('\n').find((l) => l.startsWith(tool)) ?? '';
    // Its cost is what its output costs: at least that.
    expect(row('Copilot CLI')).toMatch(/^Copilot CLI\s+1\s+\d+\s+not recorded\s+[\d,]+.*≥ \$[\d.]+$/);
    expect(row('Claude Code')).not.toContain('not recorded');
    // Recorded by some calls only: the total is at least what they say.
    expect(row('total')).toMatch(/^total\s+\d+\s+≥ [\d,]+/);
    const json = JSON.parse(cli('usage', dir, '--by', 'tool', '--json').stdout) as { rows: Array<{ key: string; calls: number; input: number; inputCalls: number }> };
    expect(json.rows.find((x) => x.key === 'Copilot CLI')).toMatchObject({ input: 0, inputCalls: 0 });
    const claude = json.rows.find((x) => x.key === 'Claude Code')!;
    expect(claude.inputCalls).toBe(claude.calls);
  });

  it('a Copilot CLI session that shut down has its input, cache and requests from the shutdown totals, its output once', () => {
    const dir = tempDir();
    const session = join(dir, 'session-state', '5c1e7a42-9d3b-4f6e-b8a1-2f0c4d6e8a13');
    cpSync(join(ROOT, 'test', 'fixtures', 'formats', 'copilot-cli', 'events.jsonl'), join(session, 'events.jsonl'), { recursive: true });
    const json = JSON.parse(cli('usage', dir, '--by', 'model', '--json').stdout) as { rows: Array<{ key: string; calls: number; input: number; inputCalls: number; output: number; cacheRead: number }> };
    // The fixture's session.shutdown: 7 requests, 118,204 in (96,320 of them cached), 952 out in all.
    expect(json.rows.map(({ key, calls, inputCalls, input, output, cacheRead }) => ({ key, calls, inputCalls, input, output, cacheRead }))).toEqual([{ key: 'claude-sonnet-4-5', calls: 7, inputCalls: 7, input: 118_204, output: 952, cacheRead: 96_320 }]);
    const text = cli('usage', dir, '--by', 'model').stdout;
    expect(text).not.toContain('not recorded');
    expect(text).not.toMatch(/≥/);
  });
});

describe('usage of a model without a price', () => {
  it('--json says its cost is not known (null), as the text says "no price", not $0', () => {
    const dir = tempDir();
    const text = read(join(ROOT, 'test', 'fixtures', 'formats', 'claude-code', 'session.jsonl'));
    mkdirSync(join(dir, '-home-dev-a'), { recursive: true });
    writeFileSync(join(dir, '-home-dev-a', '00000001-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl'), text.replaceAll('claude-sonnet-4-5-20250929', 'no-such-model-7'));
    const json = JSON.parse(cli('usage', dir, '--by', 'model', '--json').stdout) as { rows: Array<{ key: string; costUsd: number | null }>; total: { costUsd: number | null } };
    expect(json.rows.find((r) => r.key === 'no-such-model-7')?.costUsd).toBeNull();
    expect(json.rows.find((r) => r.key === 'claude-haiku-4-5-20251001')?.costUsd).toBeGreaterThan(0);
    expect(json.total.costUsd).toBeGreaterThan(0);
    expect(cli('usage', dir, '--by', 'model').stdout).toMatch(/no-such-model-7 .* no price/);
  });
});

describe('usage DIR on a catalog not built yet', () => {
  it('lists the sessions from their usage lines and says so; the next search reads them whole, and usage is the same after', () => {
    const dir = tempDir();
    const state = tempDir();
    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: state } });
    for (const [project, name] of [['-home-dev-a', '00000001-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl'], ['-home-dev-b', '00000002-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl']] as const) {
      cpSync(join(ROOT, 'test', 'fixtures', 'formats', 'claude-code', 'session.jsonl'), join(dir, project, name), { recursive: true });
    }
    const first = run('usage', dir, '--by', 'model', '--json');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/^catalog: listed 2 files from their usage lines in [\d.]+ s \(the next search reads them whole\)$/m);
    const search = run('search', dir, 'the');
    expect(search.stderr).toMatch(/^catalog: read 2 files whole for search \(listed before from their usage lines\), of 2 \(/m);
    const after = run('usage', dir, '--by', 'model', '--json');
    expect(after.stderr).not.toMatch(/catalog:/);
    expect(JSON.parse(after.stdout)).toEqual(JSON.parse(first.stdout));
    expect(JSON.parse(first.stdout).rows.length).toBeGreaterThan(0);
  });
});
