import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { EditState, Finding, Result, Skeleton } from '../../app/shared/contract.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { ROOT, tempDir } from '../helpers.js';
import { listFully } from '../support/listing.js';
import { walkSession } from '../support/claude-code-walker.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

const LEAK = 'agents/claude-code/deploy-db-timeout.jsonl';
/** What the example session leaks: a GitHub token in a command, a Stripe key and a password read from .env. */
const leaked = (text: string) => {
  const env = readFileSync(join(ROOT, 'examples', LEAK), 'utf8');
  const keys = [/ghp_[A-Za-z0-9]{36}/, /sk_live_[A-Za-z0-9]{24}/, /Tr0ub4dor-[a-z0-9]{6}/, /sk-proj-[A-Za-z0-9_-]{40,}/].map((re) => env.match(re)![0]);
  return keys.filter((k) => text.includes(k));
};

function setup(state = tempDir()) {
  const dir = tempDir();
  cpSync(join(ROOT, 'examples'), dir, { recursive: true });
  return { dir, state, ...runtimeOn(dir, state) };
}

function runtimeOn(dir: string, state: string) {
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), dismissedDir: state, listingFile: false });
  runtimes.push(rt);
  const call = async <T = Record<string, unknown>>(channel: string, input: unknown): Promise<T> => {
    const r: Result<unknown> = await dispatchNow(rt.handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  };
  return { rt, call };
}

type Listed = { findings: Finding[]; truncated: boolean; elsewhere: number };

describe('secrets in the app: found, shown per file and row, dismissed, redacted, shared', () => {
  it('the listing says which files hold secrets; the rows say which messages, with the field and a masked excerpt', async () => {
    const { rt, call } = setup();
    const entries = await listFully(rt);
    // The scan follows the counts: wait for its figures.
    const deadline = Date.now() + 20_000;
    let leak = entries.find((e) => e.path === LEAK);
    while (leak?.secrets === undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      leak = (await listFully(rt)).find((e) => e.path === LEAK);
    }
    expect(leak).toMatchObject({ secrets: expect.any(Number), personal: expect.any(Number) });
    // Each once per message (the .env read is in the result and again in toolUseResult): 5 in the .env read,
    // the password in the psql command, the token in the curl, the JWT in the CI answer.
    expect(leak!.secrets!).toBe(8);
    await call<Skeleton>('conversation:open', { path: LEAK });
    const { findings } = await call<Listed>('secrets:list', { path: LEAK });
    const rows = new Set(findings.filter((f) => f.kind !== 'path').map((f) => f.index));
    // The .env read (a tool result), the psql command (a tool call's arguments), the curl with a token.
    expect([...rows].sort((a, b) => a - b)).toEqual([0, 2, 3, 4, 5, 6, 7]);
    // User names in paths are a class of their own: every line's cwd names the home folder.
    expect(findings.find((f) => f.kind === 'path' && f.index === 1 && f.field === 'cwd')).toMatchObject({ rule: 'home-path', label: 'user name in a home folder path', value: 'maria' });
    const token = findings.find((f) => f.rule === 'github')!;
    expect(token).toMatchObject({ index: 5, kind: 'secret', field: 'message.content[0].input.command', dismissed: false });
    expect(token.excerpt).toMatch(/^ghp_•+\w{4}$/);
    // Found where Claude Code keeps its own copy of a file it read, too.
    expect(findings.filter((f) => f.index === 2).map((f) => f.field)).toContain('toolUseResult.file.content');
  });

  it('a dismissed finding stays dismissed for that file across runs (kept in the state folder), and can be brought back', async () => {
    const state = tempDir();
    const { dir, call } = setup(state);
    await call('conversation:open', { path: LEAK });
    const ip = (await call<Listed>('secrets:list', { path: LEAK })).findings.find((f) => f.rule === 'ip-address')!;
    const figures = await call<{ secrets: number; personal: number }>('secrets:dismiss', { path: LEAK, keys: [ip.key], dismissed: true });
    expect(figures.personal).toBeGreaterThanOrEqual(0);
    // Every place the same address is found is dismissed with it.
    const again = await runtimeOn(dir, state).call<Listed>('secrets:list', { path: LEAK });
    expect(again.findings.filter((f) => f.rule === 'ip-address').every((f) => f.dismissed)).toBe(true);
    expect(again.findings.filter((f) => f.rule !== 'ip-address').every((f) => !f.dismissed)).toBe(true);
    // What is kept names the finding by rule and hash: the address itself is not in the state folder.
    const kept = readFileSync(join(state, (await import('node:fs')).readdirSync(state)[0]), 'utf8');
    expect(kept).not.toContain(ip.value);
    await call('secrets:dismiss', { path: LEAK, keys: [ip.key], dismissed: false });
    expect((await call<Listed>('secrets:list', { path: LEAK })).findings.some((f) => f.rule === 'ip-address' && !f.dismissed)).toBe(true);
  });

  it('redact all in place is one undoable edit; saved, the session keeps its chain and holds none of the secrets', async () => {
    const { dir, call } = setup();
    await call('conversation:open', { path: LEAK });
    const before = readFileSync(join(dir, LEAK), 'utf8');
    expect(leaked(before).length).toBe(4);
    const ip = (await call<Listed>('secrets:list', { path: LEAK })).findings.find((f) => f.rule === 'ip-address')!;
    await call('secrets:dismiss', { path: LEAK, keys: [ip.key], dismissed: true });
    const state = await call<EditState & { redacted: number }>('secrets:redact', { path: LEAK });
    expect(state.dirty).toBe(true);
    expect(state.redacted).toBeGreaterThan(10);
    expect(state.canUndo).toMatch(/^redact \d+ findings in \d+ messages$/);
    // Undo puts every one back; redo takes them out again.
    await call('edit:undo', { path: LEAK });
    expect((await call<Listed>('secrets:list', { path: LEAK })).findings.filter((f) => !f.dismissed).length).toBeGreaterThan(10);
    await call('edit:redo', { path: LEAK });
    // Paths are left in the file (the session's cwd is where its tool resumes it): a share replaces them.
    expect((await call<Listed>('secrets:list', { path: LEAK })).findings.filter((f) => !f.dismissed && f.kind !== 'path')).toEqual([]);
    await call('edit:save', { path: LEAK });
    const after = readFileSync(join(dir, LEAK), 'utf8');
    expect(leaked(after)).toEqual([]);
    expect(after).toContain('[REDACTED:github]');
    // The dismissed address is left as it was.
    expect(after).toContain(ip.value);
    // Claude Code can still resume it whole: the same chain, uuid for uuid.
    expect(walkSession(after)).toEqual(walkSession(before));
    // Only the lines whose strings held secrets changed (5 of 8 records; two hold only the dismissed address):
    // every other line is byte for byte as it was.
    const a = before.split('\n');
    const b = after.split('\n');
    expect(b.length).toBe(a.length);
    const changed = a.map((l, i) => (l !== b[i] ? i : -1)).filter((i) => i >= 0);
    expect(changed).toEqual([1, 3, 4, 6, 7]);
    expect(readDocumentFile(join(dir, LEAK)).doc.conversations[0].records.length).toBe(8);
  });

  it("a Codex rollout: what the user typed is taken out of its event lines too when redacted all and saved", async () => {
    const { dir, call } = setup();
    const path = 'agents/codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl';
    const token = `ghp_${'Zx9'.repeat(12)}`;
    const text = readFileSync(join(dir, path), 'utf8').replaceAll('Why does `cli --version` print nothing?', `Why does \`cli --version\` print nothing? My token is ${token}`);
    writeFileSync(join(dir, path), text);
    // In a message (a response_item line) and in a line that is no message (the event_msg echo of it).
    expect(text.split(token).length - 1).toBe(2);
    await call('conversation:open', { path });
    await call('secrets:redact', { path });
    await call('edit:save', { path });
    const saved = readFileSync(join(dir, path), 'utf8');
    expect(saved).not.toContain(token);
    expect(saved.split('[REDACTED:github]').length - 1).toBe(2);
    // The event line keeps its shape: it is still a user_message event.
    const event = saved.split('\n').find((l) => l.includes('"user_message"') && l.includes('[REDACTED:github]'))!;
    expect(JSON.parse(event).payload.type).toBe('user_message');
  });

  it('a last line cut off mid-write is said, looked into, and redacted on save with the rest (kept a cut line)', async () => {
    const { dir, call } = setup();
    const full = readFileSync(join(dir, LEAK), 'utf8');
    const lines = full.split('\n');
    const key = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEA7vQ9'.repeat(4)}\n-----END RSA PRIVATE KEY-----`;
    const cut = JSON.stringify({ parentUuid: 'c0000008-0000-4000-8000-000000000008', type: 'user', message: { role: 'user', content: `here is the key:\n${key}\nmail bob.smith@gmail.com` }, uuid: 'c0000009' });
    // The write stopped 20 bytes before the line's end: no newline, not JSON.
    writeFileSync(join(dir, LEAK), lines.slice(0, 9).join('\n') + '\n' + cut.slice(0, -20));
    const sk = await call<Skeleton>('conversation:open', { path: LEAK });
    expect(sk.cutLine).toBe(10);
    const listed = await call<Listed>('secrets:list', { path: LEAK });
    expect(listed.elsewhere).toBeGreaterThanOrEqual(2);
    await call('secrets:redact', { path: LEAK });
    await call('edit:save', { path: LEAK });
    const saved = readFileSync(join(dir, LEAK), 'utf8');
    expect(saved).not.toContain('MIIEowIBAAKCAQEA7vQ9');
    expect(saved).not.toContain('bob.smith@gmail.com');
    // Still a cut line: the same bytes but for what was redacted, no newline added.
    expect(saved.split('\n')[9]).toContain('here is the key:');
    expect(saved.endsWith('\n')).toBe(false);
  });

  it('a redaction inside signed reasoning is said (the API refuses a changed signed block when resumed)', async () => {
    const { dir, call } = setup();
    const token = `ghp_${'Rt5'.repeat(12)}`;
    const lines = [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-12-01T10:00:00Z', message: { role: 'user', content: 'Deploy it.' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', timestamp: '2026-12-01T10:00:01Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'thinking', thinking: `The token ${token} is in the env.`, signature: 'EqQBCkYIBxgCKkB' }, { type: 'text', text: 'Done.' }] } },
    ];
    writeFileSync(join(dir, 'signed.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await call('conversation:open', { path: 'signed.jsonl' });
    const state = await call<{ redacted: number; signed?: number }>('secrets:redact', { path: 'signed.jsonl' });
    expect(state).toMatchObject({ redacted: 1, signed: 1 });
  });

  it('redact one message only; a read-only store is refused (redact in an export instead)', async () => {
    const { call } = setup();
    await call('conversation:open', { path: LEAK });
    const state = await call<EditState & { redacted: number }>('secrets:redact', { path: LEAK, indexes: [5] });
    expect(state.redacted).toBe(1);
    const left = (await call<Listed>('secrets:list', { path: LEAK })).findings;
    expect(left.some((f) => f.index === 5 && f.kind !== 'path')).toBe(false);
    expect(left.some((f) => f.index === 2)).toBe(true);
    await expect(call('secrets:redact', { path: LEAK, indexes: [99] })).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('a transcript to share is redacted by default, with its report; unredacted only when asked', async () => {
    const { call } = setup();
    await call('conversation:open', { path: LEAK });
    type Shared = { filename: string; text: string; mime: string; report?: { filename: string; text: string }; redacted: number; messages: number };
    const html = await call<Shared>('share:export', { path: LEAK, to: 'html', scope: 'conversation' });
    expect(html).toMatchObject({ filename: 'deploy-db-timeout.html', mime: 'text/html', messages: 8 });
    expect(leaked(html.text)).toEqual([]);
    expect(html.text).not.toMatch(/<script/i);
    expect(html.report!.filename).toBe('deploy-db-timeout.html.redactions.txt');
    expect(html.report!.text).toMatch(/message 5 \(message\.content\[0\]\.input\.command\): GitHub token ghp_•+/);
    expect(leaked(html.report!.text)).toEqual([]);
    const md = await call<Shared>('share:export', { path: LEAK, to: 'markdown', scope: 'selection', indexes: [5, 2] });
    expect(md.messages).toBe(2);
    expect(md.text).toMatch(/### 2 · user/);
    expect(md.text).toMatch(/### 5 · assistant/);
    expect(leaked(md.text)).toEqual([]);
    const raw = await call<Shared>('share:export', { path: LEAK, to: 'markdown', scope: 'conversation', redact: false });
    expect(leaked(raw.text).length).toBe(4);
    expect(raw.report).toBeUndefined();
    // The whole folder in one page: every file's conversations, redacted.
    const folder = await call<Shared>('share:export-folder', { to: 'html' });
    expect(folder.messages).toBeGreaterThan(100);
    expect(leaked(folder.text)).toEqual([]);
    expect(folder.text).toContain('deploy-db-timeout.jsonl');
  });
});
