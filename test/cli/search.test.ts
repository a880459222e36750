import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, MALFORMED, ROOT, SWARMS } from '../paths.js';
import { crushProject } from '../support/sqlite-stores.js';

// The real bin, as a child process: it runs the built dist/cli.mjs (`npm test` builds first; by hand,
// `node scripts/build.mjs --cli-only`).
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const FORMATS = join(FIXTURES, 'formats');

let base: string;
/** The folder searched: fixtures of several formats in nested folders, one malformed file, one that is no conversation. */
let tree: string;
let state: string;

const LAYOUT: Record<string, string> = {
  'a-swarms/tool_calls.json': join(SWARMS, 'tool_calls.json'),
  'a-swarms/deep/nested/conversation_demo.yaml': join(SWARMS, 'conversation_demo.yaml'),
  'claude/session.jsonl': join(FORMATS, 'claude-code', 'session.jsonl'),
  'openai/run2/chat.json': join(FORMATS, 'openai', 'chat.json'),
  'openai/run10/chat.json': join(FORMATS, 'openai', 'chat.json'),
  'sharegpt/dataset.jsonl': join(FORMATS, 'sharegpt', 'dataset.jsonl'),
  'anthropic/api_conversation_history.json': join(FORMATS, 'anthropic', 'api_conversation_history.json'),
  'broken/truncated.json': join(MALFORMED, 'truncated.json'),
};

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ci-search-'));
  tree = join(base, 'tree');
  state = join(base, 'state');
  for (const [rel, from] of Object.entries(LAYOUT)) {
    mkdirSync(dirname(join(tree, rel)), { recursive: true });
    cpSync(from, join(tree, rel));
  }
  // Not a conversation file: never read, never an error.
  writeFileSync(join(tree, 'notes.txt'), 'paris tokyo get_weather');
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

function cli(args: string[], cwd = base) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, env: { ...process.env, XDG_STATE_HOME: state } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Hit {
  path: string;
  conversation: number;
  index: number;
  role: string;
  snippet: string;
  shown?: { thread: string; index: number } | null;
  title?: string;
}
interface Out {
  query: string;
  directory: string;
  hits: Hit[];
  errors: Array<{ path: string; line?: number; column?: number; message: string }>;
  truncated: boolean;
  tooDeep: number;
  outside: string[];
}

function json(...args: string[]): Out {
  const r = cli(['search', tree, ...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Out;
}

const where = (out: Out) => out.hits.map((h) => `${h.path}#${h.conversation}:${h.index}:${h.role}`);
const TRUNCATED = /^broken\/truncated\.json$/;

describe('search --json', () => {
  it('has exactly the keys {query, directory, hits: [{path, conversation, index, role, snippet}], errors}', () => {
    const out = json('paris');
    expect(Object.keys(out)).toEqual(['query', 'directory', 'hits', 'errors', 'truncated', 'tooDeep', 'outside']);
    expect([out.truncated, out.tooDeep, out.outside]).toEqual([false, 0, []]);
    expect(out.query).toBe('paris');
    expect(out.directory).toBe(tree);
    expect(out.hits.length).toBeGreaterThan(0);
    for (const h of out.hits) {
      // A session's hits say where `show` lists them too.
      // And a file of one session its title, as the session list gives it.
      expect(Object.keys(h)).toEqual([...(h.path === 'claude/session.jsonl' ? ['path', 'conversation', 'index', 'role', 'snippet', 'shown'] : ['path', 'conversation', 'index', 'role', 'snippet']), ...(h.path.startsWith('sharegpt/') ? [] : ['title'])]);
      expect(typeof h.path).toBe('string');
      expect(Number.isInteger(h.conversation) && Number.isInteger(h.index)).toBe(true);
      expect(['system', 'user', 'assistant', 'tool', 'other']).toContain(h.role);
      expect(h.snippet.toLowerCase()).toContain('paris');
      expect(h.snippet).not.toMatch(/[\r\n]/);
    }
    for (const e of out.errors) expect(Object.keys(e).sort()).toEqual(e.line === undefined ? ['message', 'path'] : e.column === undefined ? ['line', 'message', 'path'] : ['column', 'line', 'message', 'path']);
  });

  it('finds a word in the files holding it, paths relative with "/", in the order people sort paths (run2 before run10)', () => {
    const out = json('paris');
    expect(where(out)).toEqual([
      'a-swarms/deep/nested/conversation_demo.yaml#0:3:assistant',
      'a-swarms/deep/nested/conversation_demo.yaml#0:4:tool',
      'openai/run2/chat.json#0:1:user',
      'openai/run2/chat.json#0:2:assistant',
      'openai/run2/chat.json#0:5:assistant',
      'openai/run10/chat.json#0:1:user',
      'openai/run10/chat.json#0:2:assistant',
      'openai/run10/chat.json#0:5:assistant',
    ]);
    expect(out.hits[0].snippet).toBe('The capital of France is Paris.');
    // Several words: each must begin a word of the message, in any case and order.
    expect(where(json('FRANCE', 'capit'))).toEqual(['a-swarms/deep/nested/conversation_demo.yaml#0:2:user', 'a-swarms/deep/nested/conversation_demo.yaml#0:3:assistant']);
    expect(json('FRANCE', 'capit').query).toBe('FRANCE capit');
    // A word's beginning, not its middle.
    expect(json('aris').hits).toEqual([]);
    expect(json('qqzzyx').hits).toEqual([]);
  });

  it('finds Chinese and Japanese words inside the runs of characters no space parts, as --regex finds them, the query\'s words together', () => {
    const dir = mkdtempSync(join(base, 'cjk-'));
    const chat = (words: string[]) => JSON.stringify({ messages: words.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content })) });
    writeFileSync(join(dir, 'jobs.json'), chat(['ubpb_c4这个jobs失败了，你能看到失败原因吗？', '日志显示内存不足。']));
    writeFileSync(join(dir, 'apart.json'), chat(['原因 is not what 失败 was', 'コーヒーを飲みたい']));
    const search = (query: string, ...more: string[]) => {
      const r = cli(['search', dir, query, '--json', ...more]);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as Out).hits.map((h) => `${h.path}:${h.index}`);
    };
    for (const [query, found] of [
      ['失败原因', ['jobs.json:0']],
      ['内存', ['jobs.json:1']],
      ['失败', ['apart.json:0', 'jobs.json:0']],
      ['ヒー', ['apart.json:1']],
      ['jobs 原因', ['jobs.json:0']],
    ] as const) {
      expect(search(query), query).toEqual(found);
      expect(search(query.replace(' ', '.*'), '--regex'), query).toEqual(found);
    }
  });

  it('paths are relative to DIR as given, relative or absolute', () => {
    const r = cli(['search', 'tree', 'paris', '--json'], base);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Out;
    expect(out.directory).toBe(tree);
    expect(where(out)).toEqual(where(json('paris')));
    const sub = JSON.parse(cli(['search', join(tree, 'openai'), 'paris', '--json']).stdout) as Out;
    expect([...new Set(sub.hits.map((h) => h.path))]).toEqual(['run2/chat.json', 'run10/chat.json']);
  });

  it('finds tool calls by name and arguments, and tool results', () => {
    // The assistant messages whose content is empty: only their tool calls hold get_weather.
    expect(where(json('get_weather', '--role', 'assistant'))).toEqual([
      'a-swarms/tool_calls.json#0:2:assistant',
      'openai/run2/chat.json#0:2:assistant',
      'openai/run10/chat.json#0:2:assistant',
    ]);
    const call = json('get_weather', 'osaka');
    expect(where(call)).toEqual(['a-swarms/tool_calls.json#0:2:assistant']);
    // The line shown is the rarest word's (two get_weather calls, one of them for Osaka): that call, its name and
    // its arguments' values (not their JSON).
    expect(call.hits[0].snippet).toBe('get_weather: Osaka');
    // A tool result (JSON text) and a Claude Code tool call (Read with its file path).
    expect(where(json('temp_c', 'rain'))).toEqual(['a-swarms/tool_calls.json#0:4:tool']);
    expect(where(json('read', 'date', 'test'))).toContain('claude/session.jsonl#0:2:assistant');
  });

  it('--role keeps only those roles (comma-separated list too)', () => {
    const users = json('paris', '--role', 'user');
    expect(users.hits.length).toBe(2);
    for (const h of users.hits) expect(h.role).toBe('user');
    const all = json('tokyo');
    const some = json('tokyo', '--role', 'user,tool');
    expect(some.hits.length).toBeGreaterThan(0);
    expect(where(some)).toEqual(where(all).filter((w) => /:(user|tool)$/.test(w)));
    const bad = cli(['search', tree, 'tokyo', '--role', 'wizard']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--role');
  });

  it('--format keeps only files of those formats', () => {
    expect([...new Set(json('paris', '--format', 'swarms-yaml').hits.map((h) => h.path))]).toEqual(['a-swarms/deep/nested/conversation_demo.yaml']);
    expect([...new Set(json('paris', '--format', 'openai-chat').hits.map((h) => h.path))]).toEqual(['openai/run2/chat.json', 'openai/run10/chat.json']);
    expect(where(json('paris', '--format', 'openai-chat,swarms-yaml'))).toEqual(where(json('paris')));
    expect(json('paris', '--format', 'claude-code').hits).toEqual([]);
    const bad = cli(['search', tree, 'paris', '--format', 'no-such-format']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format');
  });

  it('--regex is a case-insensitive JavaScript regular expression', () => {
    const out = json('TEMP_C.{0,20}RAIN', '--regex');
    expect(where(out)).toEqual(['a-swarms/tool_calls.json#0:4:tool']);
    expect(where(json('tokyo\\s+and\\s+os', '--regex'))).toEqual(['a-swarms/tool_calls.json#0:1:user']);
    // Inside words too, which a word query never matches.
    expect(where(json('aris', '--regex'))).toEqual(where(json('paris')));
    expect(json('aris').hits).toEqual([]);
    expect(where(json('you\\s+can\\s+call', '--regex'))).toEqual(['a-swarms/tool_calls.json#0:0:system']);
    // A match running over lines keeps its first line in the snippet.
    const multi = json('<task>\\s+add', '--regex');
    expect(multi.hits).toEqual([{ path: 'anthropic/api_conversation_history.json', conversation: 0, index: 0, role: 'user', snippet: '<task>', title: 'Add a --json flag to the report command' }]);
    // A regular expression reads the files, the words the catalog: each says a session's title the same.
    const words = json('report command').hits.find((h) => h.path === 'anthropic/api_conversation_history.json')!;
    expect(words.title).toBe(multi.hits[0].title);
  });

  it('--regex answers a pattern that backtracks without end ((x+x+)+y over 50,000 x’s), and what it cannot run it says', () => {
    const dir = join(base, 'redos');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'long.json'), JSON.stringify([{ role: 'user', content: 'x'.repeat(50_000) }, { role: 'assistant', content: 'a wombat' }]));
    // Bounded so that a search that never ends fails here instead of holding the run (backtracking took minutes).
    const run = (...args: string[]) => {
      const r = spawnSync(process.execPath, [BIN, 'search', dir, ...args], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: state }, timeout: 120_000 });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const evil = run('(x+x+)+y', '--regex', '--json');
    expect(evil.code).toBe(0);
    expect((JSON.parse(evil.stdout) as Out).hits).toEqual([]);
    expect(where(JSON.parse(run('(x+x+)+$', '--regex', '--json').stdout) as Out)).toEqual(['long.json#0:0:user']);
    expect(where(JSON.parse(run('wombat', '--json').stdout) as Out)).toEqual(['long.json#0:1:assistant']);
    const lookahead = run('wom(?=bat)', '--regex');
    expect(lookahead.code).toBe(1);
    expect(lookahead.stderr.trimEnd()).toMatch(/^conversation-inspector: --regex: not supported: lookahead \(\(\?= and \(\?!\)/);
  });

  it('a bad --regex exits 1 with one line on stderr, no stack trace', () => {
    const r = cli(['search', tree, 'get_w(', '--regex']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^conversation-inspector: --regex: /);
    expect(r.stderr).not.toMatch(/\n\s+at |Error:/);
  });

  it('the malformed file is reported in errors with its path; the other files are still searched', () => {
    const out = json('tokyo');
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0].path).toMatch(TRUNCATED);
    expect(out.errors[0].message.length).toBeGreaterThan(0);
    expect(out.errors[0].line).toBeGreaterThan(0);
    expect(where(out)).toEqual([
      'a-swarms/tool_calls.json#0:1:user',
      'a-swarms/tool_calls.json#0:2:assistant',
      'a-swarms/tool_calls.json#0:3:tool',
      'a-swarms/tool_calls.json#0:5:assistant',
      'sharegpt/dataset.jsonl#1:1:assistant',
    ]);
    // Errors are reported with no match too, and a file that is no conversation (notes.txt) is none.
    const none = json('qqzzyx');
    expect(none.errors.map((e) => e.path)).toEqual(out.errors.map((e) => e.path));
  });
});

describe('search, text output', () => {
  it('groups hits under the file path, one line per message, the summary and errors on stderr', () => {
    const r = cli(['search', tree, 'tokyo']);
    expect(r.code).toBe(0);
    const blocks = r.stdout.trimEnd().split('\n\n').map((b) => b.split('\n'));
    const hits = json('tokyo').hits;
    const paths = [...new Set(hits.map((h) => h.path))];
    // Each file's path, then the title of the session it holds (a file of several has none).
    blocks.forEach((b, i) => {
      const title = hits.find((h) => h.path === paths[i])!.title;
      if (!title) return expect(b[0]).toBe(paths[i]);
      expect(b[0].startsWith(`${paths[i]}  · `)).toBe(true);
      // Cut to 60 columns with "…" where longer.
      const shown = b[0].slice(paths[i].length + 4);
      expect(shown === title || (shown.endsWith('…') && title.startsWith(shown.slice(0, -1).trimEnd()) && shown.length <= 60)).toBe(true);
    });
    blocks.forEach((block, i) => {
      const mine = hits.filter((h) => h.path === paths[i]);
      expect(block).toHaveLength(1 + mine.length);
      block.slice(1).forEach((line, j) => {
        // A file with several conversations numbers hits conversation:index.
        const at = paths[i] === 'sharegpt/dataset.jsonl' ? `${mine[j].conversation}:${mine[j].index}` : `${mine[j].index}`;
        // The role as `show` prints it: the file's own word (ShareGPT's "gpt"), --json's `role` the normal one.
        const role = paths[i] === 'sharegpt/dataset.jsonl' ? { assistant: 'gpt', user: 'human' }[mine[j].role] : mine[j].role;
        expect(line).toMatch(new RegExp(`^ +${at} +${role} +`));
        expect(line.endsWith(mine[j].snippet)).toBe(true);
      });
    });
    expect(blocks[0]).toEqual([
      'a-swarms/tool_calls.json  · What\'s the weather in Tokyo and Osaka?',
      '      1  user      What\'s the weather in Tokyo and Osaka?',
      '      2  assistant get_weather: Tokyo',
      '      3  tool      {"city": "Tokyo", "temp_c": 18, "sky": "clear"}',
      '      5  assistant Tokyo is clear at 18 °C; Osaka has rain at 20 °C.',
    ]);
    expect(blocks[1]).toEqual(['sharegpt/dataset.jsonl', '    1:1  gpt       Tokyo.']);
    const err = r.stderr.trimEnd().split('\n');
    expect(err[0]).toBe('5 matches in 2 files');
    expect(err.slice(1)).toHaveLength(1);
    expect(err[1]).toMatch(/^error: broken\/truncated\.json(:\d+(:\d+)?)?: \S/);
  });

  it('no match: nothing on stdout, "no matches" on stderr, exit 0', () => {
    const r = cli(['search', tree, 'qqzzyx']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('no matches');
  });
});

describe('search prints the first hits and counts them all', () => {
  // Two datasets of many conversations, each message naming the word: more hits than a terminal is shown.
  const many = mkdtempSync(join(tmpdir(), 'ci-search-many-'));
  const manyState = join(many, 'state');
  const store = join(many, 'store');
  beforeAll(() => {
    mkdirSync(join(store, 'b'), { recursive: true });
    const dataset = (n: number, tag: string) =>
      Array.from({ length: n }, (_, k) => JSON.stringify({ id: `${tag}${k}`, conversations: [{ from: 'human', value: `kumquat question ${tag} ${k}` }, { from: 'gpt', value: `a kumquat answer ${k}` }] })).join('\n') + '\n';
    writeFileSync(join(store, 'a.jsonl'), dataset(120, 'a'));
    writeFileSync(join(store, 'b', 'c.jsonl'), dataset(100, 'c'));
  });
  afterAll(() => rmSync(many, { recursive: true, force: true }));
  const run = (args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: manyState } });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr.split('\n').filter((l) => l && !l.startsWith('catalog:')) };
  };
  const hitLines = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('  '));

  it('300 hits by default, the first of every hit in the same order, every match counted', () => {
    const all = run(['search', store, 'kumquat', '--all']);
    expect(all.code).toBe(0);
    expect(hitLines(all.stdout)).toHaveLength(440);
    expect(all.stderr[0]).toBe('440 matches in 2 files');
    const first = run(['search', store, 'kumquat']);
    expect(first.code).toBe(0);
    expect(hitLines(first.stdout)).toEqual(hitLines(all.stdout).slice(0, 300));
    // The page crosses from one file into the next, each headed by its path as in the whole list.
    expect(first.stdout.split('\n').filter((l) => l && !l.startsWith('  '))).toEqual(['a.jsonl', 'b/c.jsonl']);
    expect(first.stderr[0]).toBe('440 matches in 2 files; the first 300 shown (--limit N for more, --all for every one)');
    const five = run(['search', store, 'kumquat question', '--limit', '5']);
    expect(hitLines(five.stdout)).toEqual(hitLines(run(['search', store, 'kumquat question', '--all']).stdout).slice(0, 5));
    expect(five.stderr[0]).toBe('220 matches in 2 files; the first 5 shown (--limit N for more, --all for every one)');
    // A limit past the matches leaves nothing out, and says nothing of it.
    expect(run(['search', store, 'kumquat', '--limit', '1000']).stderr[0]).toBe('440 matches in 2 files');
  });

  it('--json gives every hit unless --limit, then says what it left out', () => {
    const all = JSON.parse(run(['search', store, 'kumquat', '--json']).stdout) as Out & { limited?: unknown };
    expect(all.hits).toHaveLength(440);
    expect(all.limited).toBeUndefined();
    const two = JSON.parse(run(['search', store, 'kumquat', '--json', '--limit', '2']).stdout) as Out & { limited?: unknown };
    expect(two.hits).toEqual(all.hits.slice(0, 2));
    expect(two.limited).toEqual({ shown: 2, matches: 440, files: 2 });
  });

  it('a regular expression is limited the same way', () => {
    const r = run(['search', store, 'kumq.at answer', '--regex', '--limit', '3']);
    expect(r.code).toBe(0);
    expect(hitLines(r.stdout)).toHaveLength(3);
    expect(r.stderr[0]).toBe('220 matches in 2 files; the first 3 shown (--limit N for more, --all for every one)');
  });

  it('a bad --limit, or --limit with --all, is one line and exit 2', () => {
    for (const args of [['--limit', '0'], ['--limit', 'ten'], ['--limit=-3'], ['--limit', '5', '--all']]) {
      const r = run(['search', store, 'kumquat', ...args]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr[0]).toMatch(/^conversation-inspector: (--limit takes a number of hits|--all and --limit cannot go together)/);
    }
  });
});

describe('search, bad usage', () => {
  it('a missing DIR exits 1 with one line', () => {
    for (const [dir, says] of [
      [join(base, 'no-such-dir'), 'no such directory'],
      [join(tree, 'a-swarms', 'tool_calls.json'), 'is a file: search reads every session under a folder (show FILE reads one file)'],
    ]) {
      const r = cli(['search', dir, 'paris']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toEqual([`conversation-inspector: ${dir}${says.startsWith('is') ? ' ' : ': '}${says}`]);
    }
  });

  it('a missing QUERY exits 2 with the usage', () => {
    for (const args of [['search', tree], ['search'], ['search', tree, '   ']]) {
      const r = cli(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^conversation-inspector: search /);
      expect(r.stderr).toContain('Usage: conversation-inspector');
      expect(r.stderr).toContain('search DIR QUERY');
    }
  });
});

describe('search numbers a session\'s hits as show lists them', () => {
  // Every session of the examples and fixtures: Claude Code (sub-agents, rewinds, compactions), Codex, ChatGPT.
  const sessions = mkdtempSync(join(tmpdir(), 'ci-search-sessions-'));
  afterAll(() => rmSync(sessions, { recursive: true, force: true }));
  cpSync(join(ROOT, 'examples', 'agents'), join(sessions, 'examples'), { recursive: true });
  cpSync(join(FORMATS, 'claude-code'), join(sessions, 'fixtures', 'claude-code'), { recursive: true });
  cpSync(join(FORMATS, 'codex'), join(sessions, 'fixtures', 'codex'), { recursive: true });
  cpSync(join(FORMATS, 'chatgpt'), join(sessions, 'fixtures', 'chatgpt'), { recursive: true });

  const search = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, 'search', sessions, ...args], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: join(sessions, '.state') } });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  type Shown = { conversation: number; index: number; record?: number };
  const shows = new Map<string, Shown[]>();
  /** What `show FILE --thread T --json` lists: each row with the record it is. */
  const show = (path: string, thread: string): Shown[] => {
    const key = `${path}\0${thread}`;
    if (!shows.has(key)) {
      const r = spawnSync(process.execPath, [BIN, 'show', join(sessions, path), '--thread', thread, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, XDG_STATE_HOME: join(sessions, '.state') } });
      expect(r.status, r.stderr).toBe(0);
      shows.set(key, (JSON.parse(r.stdout) as { messages: Shown[] }).messages);
    }
    return shows.get(key)!;
  };
  const threadLists = new Map<string, string[]>();
  const threadsOf = (path: string) => {
    const known = threadLists.get(path);
    if (known) return known;
    const r = spawnSync(process.execPath, [BIN, 'show', join(sessions, path), '--json'], { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, XDG_STATE_HOME: join(sessions, '.state') } });
    const threads = ((JSON.parse(r.stdout) as { threads?: Array<{ thread: string }> }).threads ?? []).map((t) => t.thread.replace(/^side:/, ''));
    threadLists.set(path, threads);
    return threads;
  };

  it('every hit of every session: its row in `show` (its thread\'s), or ⤷ exactly where no default thread lists it', () => {
    const out = JSON.parse(search('.', '--regex', '--json').stdout) as Out;
    const sessionHits = out.hits.filter((h) => h.shown !== undefined);
    expect(new Set(sessionHits.map((h) => h.path)).size).toBeGreaterThanOrEqual(6);
    expect(sessionHits.some((h) => h.shown === null)).toBe(true);
    expect(sessionHits.some((h) => h.shown && h.shown.thread !== 'main')).toBe(true);
    for (const h of sessionHits) {
      if (h.shown) {
        const row = show(h.path, h.shown.thread).find((m) => m.conversation === h.conversation && m.index === h.shown!.index);
        expect(row?.record ?? row?.index, `${h.path} ${h.conversation}:${h.index}`).toBe(h.index);
      } else {
        for (const thread of threadsOf(h.path)) expect(show(h.path, thread).some((m) => m.conversation === h.conversation && (m.record ?? m.index) === h.index), `${h.path} ${h.index} on ${thread}`).toBe(false);
      }
    }
    // Files shown as stored keep their place in the file (the prompt histories and the index of names are lists, not sessions).
    for (const h of out.hits.filter((x) => x.shown === undefined)) expect(h.path).not.toMatch(/claude-code\/(?!history\.jsonl$)|codex\/(?!(history|session_index)\.jsonl$)|chatgpt/);
  }, 300_000);

  it('the text output numbers them so, and says what ⤷ means', () => {
    const r = search('tax line');
    expect(r.code).toBe(0);
    const block = r.stdout.split('\n\n').find((b) => b.startsWith('examples/claude-code/cart-rewind-compact.jsonl'))!;
    // The prompt after the compaction is row 2 of `show` (record 15 of the file).
    expect(block.split('\n')).toContain('      2  user      Now do the same for the tax line.');
    const all = search('cart');
    expect(all.stdout).toMatch(/^ +⤷\d+ +user +The cart total is off by a cent/m);
    expect(all.stderr).toContain('⤷N: a message `show` does not list by default');
    // A sub-agent's own file: its thread is what `show` shows by default, so its rows go bare.
    const agent = all.stdout.split('\n\n').find((b) => b.includes('subagents/agent-a3f9e1d2b7c40815.jsonl'))!;
    for (const line of agent.split('\n').slice(1)) expect(line).toMatch(/^ +\d+ {2}/);
    // Every hit line's role starts in one column, however wide its number (a thread's `id:row` pads the others).
    const lines = all.stdout.split('\n').filter((l) => l.startsWith('  ') && /\S/.test(l));
    const roleAt = (l: string) => /^ +\S+ {2}/.exec(l)![0].length;
    expect(lines.length).toBeGreaterThan(3);
    expect(new Set(lines.map(roleAt)).size).toBe(1);
    // And in each file, what a hit says starts in one column, however long a role its file names (a Codex item type).
    const wide = search('version');
    let padded = 0;
    for (const block of wide.stdout.split('\n\n')) {
      const hitLines = block.split('\n').slice(1).filter((l) => /^ +\S+ {2}\S+ +\S/.test(l));
      const saysAt = new Set(hitLines.map((l) => /^ +\S+ {2}\S+ +/.exec(l)![0].length));
      expect(saysAt.size, block).toBeLessThanOrEqual(1);
      if (hitLines.some((l) => /^ +\S+ {2}\S{10,} /.test(l))) padded++;
    }
    expect(padded).toBeGreaterThan(0);
  });

  it('a file of several conversations numbers every hit conversation:row, whichever conversations the query finds', () => {
    // "Lisbon" is only in the ChatGPT export's first conversation.
    const out = JSON.parse(search('Lisbon', '--json').stdout) as Out;
    const chatgpt = out.hits.filter((h) => h.path === 'examples/chatgpt/conversations.json');
    expect(chatgpt.length).toBeGreaterThan(0);
    expect(new Set(chatgpt.map((h) => h.conversation))).toEqual(new Set([0]));
    const block = search('Lisbon').stdout.split('\n\n').find((b) => b.startsWith('examples/chatgpt/conversations.json'))!;
    for (const line of block.split('\n').slice(1)) expect(line).toMatch(/^ +0:(⤷)?\d+ {2}/);
  });
});

describe('search answered from the catalog (the built bin)', () => {
  const PRELOAD = join(ROOT, 'test', 'support', 'loaded-modules-preload.mjs');
  /** The bin's search in a state folder of its own, and what the process loaded (threads aside). */
  function traced(dir: string, stateDir: string, ...args: string[]) {
    const log = join(base, 'loaded.txt');
    rmSync(log, { force: true });
    const r = spawnSync(process.execPath, ['--import', PRELOAD, BIN, 'search', dir, ...args, '--json'], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: stateDir, CI_LOADED_FILE: log } });
    expect(r.status, r.stderr).toBe(0);
    const loaded = readFileSync(log, 'utf8').split('\n');
    return { out: JSON.parse(r.stdout) as Out, stderr: r.stderr, loaded: (name: string) => loaded.some((l) => l.includes(`/node_modules/${name}/`) || l === `require:${name}`) };
  }

  it('gives the hits of the run that built it, reading no file again; a changed file is said and read again', () => {
    const stateDir = join(base, 'state-kept');
    const first = traced(tree, stateDir, 'paris');
    expect(first.stderr).toMatch(/^catalog: built from 8 files in [\d.]+ s \(kept for next time\)$/m);
    expect(first.out.hits.length).toBeGreaterThan(0);
    const again = traced(tree, stateDir, 'paris');
    expect(again.stderr).not.toContain('catalog:');
    expect(again.out).toEqual(first.out);
    // Touched: the same bytes, another time: read again, and said.
    const touched = join(tree, 'openai/run2/chat.json');
    utimesSync(touched, new Date(), new Date(Date.now() + 5000));
    const changed = traced(tree, stateDir, 'paris');
    expect(changed.stderr).toMatch(/^catalog: read 1 new or changed file of 8 \([\d.]+ s\)$/m);
    expect(changed.out).toEqual(first.out);
  });

  it('up to date, it loads what a search uses only: no SQLite reader, secretlint, phone finder, diff or tokenizer', () => {
    const stateDir = join(base, 'state-loads');
    traced(tree, stateDir, 'paris');
    const kept = traced(tree, stateDir, 'paris');
    expect(kept.stderr).not.toContain('catalog:');
    expect(kept.out.hits.length).toBeGreaterThan(0);
    expect(kept.loaded('libsql')).toBe(true);
    for (const unused of ['sql.js', '@secretlint/core', 'libphonenumber-js', 'diff', 'js-tiktoken']) expect(kept.loaded(unused), unused).toBe(false);
  });

  it('a hit in another app’s database found from the catalog is read with the SQLite reader, loaded for it', () => {
    const dir = join(base, 'with-db');
    const stateDir = join(base, 'state-db');
    crushProject(dir);
    cpSync(join(FORMATS, 'claude-code', 'session.jsonl'), join(dir, 'session.jsonl'));
    const first = traced(dir, stateDir, 'formatter');
    expect(first.stderr).toMatch(/^catalog: built from 2 files/m);
    const found = where(first.out);
    expect(found.filter((h) => h.startsWith('.crush/crush.db#')).length).toBeGreaterThan(0);
    const again = traced(dir, stateDir, 'formatter');
    expect(again.stderr).not.toContain('catalog:');
    expect(where(again.out)).toEqual(found);
    expect(again.loaded('sql.js')).toBe(true);
    // A search whose hits are all in session logs reads their lines by their bytes: no SQLite reader.
    const logOnly = traced(dir, stateDir, 'continued');
    expect(logOnly.out.hits.length).toBeGreaterThan(0);
    expect(logOnly.out.hits.every((h) => h.path === 'session.jsonl')).toBe(true);
    expect(logOnly.loaded('sql.js')).toBe(false);
  });
});
