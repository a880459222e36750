import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';
import { openAiFineTuneErrors } from '../support/openai-finetune-check.js';
import { REALFILES } from '../support/realfiles.js';

/**
 * Files other people's tools wrote (shared test data beside the checkout, never copied here), read through the
 * real bin; what each should hold is counted by a few lines of Python over the same bytes, apart from this tool.
 */
// Beside the checkout, or where REALFILES says (test/support/realfiles.ts).
const REAL = REALFILES ?? resolve(ROOT, '..', 'shared', 'realfiles');
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const STATE = tempDir();

const python = spawnSync('python3', ['-c', 'print(1)'], { encoding: 'utf8' });
const missing = !existsSync(REAL) ? `${REAL} is absent` : python.status !== 0 ? 'python3 is not installed' : undefined;
if (missing) console.log(`real-file tests of the sources read skipped: ${missing}`);

const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: tempDir(), maxBuffer: 64 * 1024 * 1024, env: { ...process.env, XDG_STATE_HOME: STATE } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const json = <T>(args: string[]): T => {
  const r = cli(...args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

/** What a Python script prints as JSON for a file. */
function py<T>(script: string, file: string): T {
  const r = spawnSync('python3', ['-c', script, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as T;
}

type Listed = { files: Array<{ path: string; format?: string; error?: string; conversations?: number; messages?: number; other?: number }> };
type Shown = { format: string; conversations: number; messages: Array<{ conversation: number; index: number; role: string; content: string }> };

const CODEX = join(REAL, 'codex', 'jaydenxsoe-legacy-2025-08');
const ROLLOUT = join(CODEX, 'sessions', '2025', '08', '24', 'rollout-2025-08-24T14-59-18-ab5bf9fa-f843-4f56-a109-0fc78f090893.jsonl');
const AIDER = join(REAL, 'aider', 'abdulalkawasmeh');
const SUMMARY_ONLY = join(REAL, 'claude-code', 'borja-1.0.x', '-home-brojo-system-conf', '469615f2-85bc-4a9f-ac94-a1087876a579.jsonl');

// Codex's history.jsonl: the prompts by session, in the order each session first appears.
const HISTORY_PY = `
import json, sys
order, by = [], {}
for line in open(sys.argv[1], encoding='utf-8'):
    if not line.strip(): continue
    d = json.loads(line)
    if d['session_id'] not in by: order.append(d['session_id']); by[d['session_id']] = []
    by[d['session_id']].append(d['text'])
print(json.dumps({'sessions': [by[s] for s in order]}))
`;

// A legacy rollout: the bare items (a type, no record_type) are the messages; the rest are kept.
const ROLLOUT_PY = `
import json, sys
items, other = [], 0
for line in open(sys.argv[1], encoding='utf-8'):
    if not line.strip(): continue
    d = json.loads(line)
    if 'type' in d and 'record_type' not in d: items.append(d.get('role') if d['type'] == 'message' else d['type'])
    else: other += 1
print(json.dumps({'roles': items, 'other': other}))
`;

// prompt_toolkit's FileHistory as it loads the file: runs of '+' lines, the '+' off each, the last newline dropped.
const INPUT_HISTORY_PY = `
import json, sys
entries, run = [], []
for line in open(sys.argv[1], 'rb').read().split(b'\\n'):
    if line.startswith(b'+'): run.append(line[1:] + b'\\n')
    elif run: entries.append(b''.join(run)[:-1].decode('utf-8')); run = []
if run: entries.append(b''.join(run)[:-1].decode('utf-8'))
print(json.dumps(entries))
`;

// A Claude Code file's user and assistant lines (a summary-only file has none).
const CLAUDE_PY = `
import json, sys
n = 0
for line in open(sys.argv[1], encoding='utf-8'):
    if line.strip() and json.loads(line).get('type') in ('user', 'assistant'): n += 1
print(json.dumps(n))
`;

// Gemini CLI's project folders: each one's name and, where a session's tool calls name a folder whose SHA-256
// (getProjectHash) is that name, the folder.
const GEMINI_PY = String.raw`
import hashlib, json, os, re, sys
out = {}
hashes = {}
proven = {}
for d in os.listdir(os.path.join(sys.argv[1], 'tmp')):
    chats = os.path.join(sys.argv[1], 'tmp', d, 'chats')
    if not os.path.isdir(chats): continue
    for f in os.listdir(chats):
        s = json.load(open(os.path.join(chats, f), encoding='utf-8'))
        found = None
        for m in s['messages']:
            for c in m.get('toolCalls') or []:
                for v in (c.get('args') or {}).values():
                    if not isinstance(v, str) or not re.match(r'^[A-Za-z]:\\|^/', v): continue
                    p = v
                    while found is None and len(p) > 3:
                        if hashlib.sha256(p.encode()).hexdigest() == s['projectHash']: found = p
                        p = p[:max(p.rfind('\\'), p.rfind('/'))]
        out[d + '/chats/' + f] = found
        hashes[d + '/chats/' + f] = s['projectHash']
        if found: proven[s['projectHash']] = found
# Sessions of one hash ran in one folder: one that names it proves it for the others.
print(json.dumps({k: v or proven.get(hashes[k]) for k, v in out.items()}))
`;

// Continue's sessions.json: each session's dateCreated, as an ISO time.
const CONTINUE_PY = String.raw`
import datetime, json, sys
print(json.dumps({e['sessionId']: datetime.datetime.fromtimestamp(int(e['dateCreated']) / 1000, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3] + 'Z' for e in json.load(open(sys.argv[1], encoding='utf-8'))}))
`;

// A Codex rollout's first prompt: the words after the IDE extension's last "## My request for Codex:" line.
const CODEX_REQUEST_PY = String.raw`
import json, re, sys
first = None
for line in open(sys.argv[1], encoding='utf-8'):
    v = json.loads(line)
    p = v.get('payload') or {}
    if v.get('type') == 'event_msg' and p.get('type') == 'user_message':
        parts = re.split(r'(?m)^## My request for Codex:[ \t]*$', p['message'])
        first = {'wrapped': len(parts) > 1, 'request': ' '.join(parts[-1].split())}
        break
print(json.dumps(first))
`;

// Copilot CLI's session.shutdown totals, every shutdown of every session added up by model.
const COPILOT_PY = String.raw`
import json, os, sys
out = {}
for root, _, files in os.walk(sys.argv[1]):
    if 'events.jsonl' not in files: continue
    for line in open(os.path.join(root, 'events.jsonl'), encoding='utf-8'):
        v = json.loads(line)
        if v.get('type') != 'session.shutdown': continue
        for model, m in v['data'].get('modelMetrics', {}).items():
            t = out.setdefault(model.replace('.', '-'), {'calls': 0, 'input': 0, 'output': 0, 'cacheRead': 0, 'cacheWrite': 0})
            u = m['usage']
            t['calls'] += m['requests']['count']; t['input'] += u['inputTokens']; t['output'] += u['outputTokens']
            t['cacheRead'] += u['cacheReadTokens']; t['cacheWrite'] += u['cacheWriteTokens']
print(json.dumps(out))
`;

type Sessions = { sessions: Array<{ path: string; title?: string; project?: string; sessionId?: string; firstAt?: string; lastAt?: string }> };

describe.skipIf(missing !== undefined)('real files of the sources that were missing or misread, through the real bin', () => {
  it('Gemini CLI sessions are listed under the folder their hash stands for where a session of the hash names it, else a short name, never the hash', () => {
    const gemini = join(REAL, 'gemini-cli', 'fabien');
    const folders = py<Record<string, string | null>>(GEMINI_PY, gemini);
    const listed = json<Sessions>(['sessions', gemini, '--json']).sessions;
    expect(listed.length).toBe(Object.keys(folders).length);
    for (const s of listed) {
      const key = s.path.replace(/^tmp\//, '');
      const folder = key.split('/')[0];
      if (folders[key]) expect(s.project, key).toBe(folders[key]);
      else expect(s.project, key).toBe(/^[0-9a-f]{64}$/.test(folder) ? `Gemini project ${folder.slice(0, 6)}…` : folder);
    }
    // At least one folder is named in its sessions: the test would prove nothing otherwise.
    expect(Object.values(folders).some((f) => f !== null)).toBe(true);
  }, 180_000);

  it('search lines every hit’s role up in one column, a sub-agent’s `thread:row` numbers too', () => {
    const r = cli('search', join(REAL, 'claude-code'), 'error');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('  ') && /\S/.test(l));
    const numbers = lines.map((l) => /^ +(\S+)/.exec(l)![1]);
    // Some hit is numbered by a thread of its session (a sub-agent written inline), wider than a row number.
    expect(numbers.some((n) => /^[0-9a-f]{6,}:/.test(n))).toBe(true);
    expect(new Set(lines.map((l) => /^ +\S+ {2}/.exec(l)![0].length)).size).toBe(1);
  }, 180_000);

  it('a Continue session is dated by sessions.json beside it (its file keeps no time)', () => {
    const dir = join(REAL, 'continue', 'fabien', 'sessions');
    const dates = py<Record<string, string>>(CONTINUE_PY, join(dir, 'sessions.json'));
    const listed = json<Sessions>(['sessions', dir, '--json']).sessions;
    expect(listed.length).toBeGreaterThan(0);
    for (const s of listed) expect([s.sessionId, s.firstAt, s.lastAt]).toEqual([s.sessionId, dates[s.sessionId!], dates[s.sessionId!]]);
  }, 180_000);

  it('a Codex session the IDE extension or the desktop app wrapped in context is titled by the request in it', () => {
    const listed = json<Sessions>(['sessions', join(REAL, 'codex'), '--json']).sessions;
    let wrapped = 0;
    for (const s of listed) {
      expect(s.title, s.path).not.toMatch(/^<[a-z_]+>|Context from my IDE|Referenced ChatGPT conversation|AGENTS\.md instructions/);
      const first = py<{ wrapped: boolean; request: string } | null>(CODEX_REQUEST_PY, join(REAL, 'codex', s.path));
      if (!first?.wrapped) continue;
      wrapped++;
      // A Markdown link in it is titled by its words ("[notes](chatgpt-conversation://…)" is "notes").
      const request = first.request.replace(/\[([^\]\n]*)\]\([^()\s]*\)/g, '$1');
      expect(request.startsWith(s.title!.replace(/…$/, '')), `${s.path}: ${s.title}`).toBe(true);
    }
    expect(wrapped).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it('Copilot CLI usage holds what each session.shutdown says: input, cache and requests per model, the output once', () => {
    const dir = join(REAL, 'copilot-cli');
    const totals = py<Record<string, { calls: number; input: number; output: number; cacheRead: number; cacheWrite: number }>>(COPILOT_PY, dir);
    const rows = json<{ rows: Array<{ key: string; calls: number; inputCalls: number; input: number; output: number; cacheRead: number; cacheWrite: number }> }>(['usage', dir, '--by', 'model', '--json']).rows;
    expect(Object.keys(totals).length).toBeGreaterThan(0);
    expect(new Map(rows.map(({ key, calls, input, output, cacheRead, cacheWrite }) => [key, { calls, input, output, cacheRead, cacheWrite }]))).toEqual(new Map(Object.entries(totals)));
    for (const r of rows) expect(r.inputCalls).toBe(r.calls);
  }, 180_000);

  it('Codex’s history.jsonl and a legacy rollout are listed in their formats, with the counts Python finds', () => {
    const history = py<{ sessions: string[][] }>(HISTORY_PY, join(CODEX, 'history.jsonl'));
    const rollout = py<{ roles: string[]; other: number }>(ROLLOUT_PY, ROLLOUT);
    const listed = json<Listed>(['ls', CODEX, '--json']).files;
    expect(listed.find((f) => f.path === 'history.jsonl')).toMatchObject({ format: 'codex-history', conversations: history.sessions.length, messages: history.sessions.flat().length });
    expect(listed.find((f) => f.path.endsWith('ab5bf9fa-f843-4f56-a109-0fc78f090893.jsonl'))).toMatchObject({ format: 'codex-rollout', conversations: 1, messages: rollout.roles.length, other: rollout.other });
    expect(listed.filter((f) => f.error)).toEqual([]);
  }, 180_000);

  it('show reads every prompt of history.jsonl, grouped by session, word for word', () => {
    const history = py<{ sessions: string[][] }>(HISTORY_PY, join(CODEX, 'history.jsonl'));
    const shown = json<Shown>(['show', join(CODEX, 'history.jsonl'), '--json']);
    expect(shown.format).toBe('codex-history');
    expect(shown.conversations).toBe(history.sessions.length);
    const by: string[][] = [];
    for (const m of shown.messages) (by[m.conversation] ??= []).push(m.content);
    expect(by).toEqual(history.sessions);
    expect(new Set(shown.messages.map((m) => m.role))).toEqual(new Set(['user']));
  }, 180_000);

  it('show reads the legacy rollout’s items in order: messages by role, reasoning, calls and their outputs', () => {
    const rollout = py<{ roles: string[]; other: number }>(ROLLOUT_PY, ROLLOUT);
    const shown = json<Shown>(['show', ROLLOUT, '--json']);
    expect(shown.format).toBe('codex-rollout');
    expect(shown.messages.map((m) => m.role)).toEqual(rollout.roles);
  }, 180_000);

  it('the legacy rollout converts into OpenAI fine-tuning data OpenAI’s checks take', () => {
    const r = cli('convert', ROLLOUT, '--to', 'openai-chat-jsonl');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/^warning/m);
    expect(openAiFineTuneErrors(r.stdout)).toEqual([]);
  }, 180_000);

  it('Aider’s .aider.input.history is listed and read: each prompt as prompt_toolkit loads it', () => {
    const prompts = py<string[]>(INPUT_HISTORY_PY, join(AIDER, '.aider.input.history'));
    const listed = json<Listed>(['ls', AIDER, '--json']).files;
    expect(listed.find((f) => f.path === '.aider.input.history')).toMatchObject({ format: 'aider-input', conversations: 1, messages: prompts.length });
    const shown = json<Shown>(['show', join(AIDER, '.aider.input.history'), '--json']);
    expect(shown.messages.map((m) => m.content)).toEqual(prompts);
  }, 180_000);

  it('a file of no messages (a summary-only Claude Code file) into Codex or fine-tuning data is refused, nothing written', () => {
    expect(py<number>(CLAUDE_PY, SUMMARY_ONLY)).toBe(0);
    for (const to of ['codex-rollout', 'openai-chat-jsonl']) {
      const r = cli('convert', SUMMARY_ONLY, '--to', to);
      expect(r.code, to).toBe(1);
      expect(r.stdout, to).toBe('');
      expect(r.stderr, to).toMatch(/nothing to write/);
    }
  }, 180_000);
});
