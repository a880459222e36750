// The tools' logs of what the user typed and indexes of their sessions (Claude Code's history.jsonl, OpenCode's
// prompt-history.jsonl, Gemini CLI's logs.json, Codex's session_index.jsonl) and Copilot CLI's workspace.yaml:
// read as what they are, every entry's words as written, grouped as the tool groups them, never edited.
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, readDocumentFile } from '../../src/core/formats/document-file.js';
import { sentText } from '../../src/core/formats/model.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const FORMATS = join(FIXTURES, 'formats');
const eol = fc.constantFrom('\n', '\r\n');

/** The texts of a parsed file, conversation by conversation. */
function texts(text: string, name: string, codec: string): string[][] {
  const { doc, codec: c } = parseDocumentText(text, name);
  expect(c.id).toBe(codec);
  return doc.conversations.map((conv) => conv.records.map((r) => sentText(c.view(r))));
}

/** Entries grouped by a key, in the order each key first appears. */
function byKey<T>(entries: readonly T[], key: (e: T) => string, value: (e: T) => string): string[][] {
  const m = new Map<string, string[]>();
  for (const e of entries) m.set(key(e), [...(m.get(key(e)) ?? []), value(e)]);
  return [...m.values()];
}

describe('prompt logs and session indexes', () => {
  it('Claude Code history.jsonl: every prompt word for word, by project, in the order typed (CRLF or LF)', () => {
    const prompt = fc.record({ display: edgeString, timestamp: fc.integer({ min: 1, max: 4e12 }), project: fc.constantFrom('/home/u/a', '/home/u/b c', 'C:\\work\\x') });
    fc.assert(
      fc.property(fc.array(prompt, { minLength: 1, maxLength: 12 }), eol, (entries, nl) => {
        const text = entries.map((e) => JSON.stringify({ display: e.display, pastedContents: {}, timestamp: e.timestamp, project: e.project })).join(nl) + nl;
        expect(texts(text, 'history.jsonl', 'claude-code-history')).toEqual(byKey(entries, (e) => e.project, (e) => e.display));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 100) },
    );
  });

  it('OpenCode prompt-history.jsonl and Codex session_index.jsonl: one conversation, every entry as written', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ input: edgeString, mode: fc.constantFrom('normal', 'shell') }), { minLength: 1, maxLength: 10 }), eol, (entries, nl) => {
        const text = entries.map((e) => JSON.stringify({ input: e.input, parts: [], mode: e.mode })).join(nl) + nl;
        expect(texts(text, 'prompt-history.jsonl', 'opencode-prompt-history')).toEqual([entries.map((e) => e.input)]);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 100) },
    );
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.uuid(), thread_name: edgeString }), { minLength: 1, maxLength: 10 }), eol, (entries, nl) => {
        const text = entries.map((e) => JSON.stringify({ id: e.id, thread_name: e.thread_name, updated_at: '2026-11-21T09:31:02.118Z' })).join(nl) + nl;
        expect(texts(text, 'session_index.jsonl', 'codex-session-index')).toEqual([entries.map((e) => e.thread_name)]);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 100) },
    );
  });

  it('Gemini CLI logs.json: by session, indented as the tool writes it or on one line', () => {
    const entry = fc.record({ sessionId: fc.constantFrom('s-1', 's-2', 's-3'), message: edgeString });
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 10 }), fc.constantFrom(0, 2), (entries, indent) => {
        const list = entries.map((e, i) => ({ sessionId: e.sessionId, messageId: i, type: 'user', message: e.message, timestamp: '2026-11-30T10:00:05.120Z' }));
        expect(texts(JSON.stringify(list, null, indent), 'logs.json', 'gemini-cli-logs')).toEqual(byKey(entries, (e) => e.sessionId, (e) => e.message));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 100) },
    );
  });

  it('the fixtures read as Python reads them: entries, groups and the pasted text beside the typed words', () => {
    const py = spawnSync('python3', ['-c', `
import json, sys
out = {}
lines = [json.loads(l) for l in open(sys.argv[1], encoding='utf-8') if l.strip()]
groups = {}
for l in lines: groups.setdefault(l['project'], []).append(l['display'])
out['claude'] = list(groups.values())
out['pasted'] = [c['content'] for l in lines for c in l['pastedContents'].values()]
g = {}
for e in json.load(open(sys.argv[2], encoding='utf-8')): g.setdefault(e['sessionId'], []).append(e['message'])
out['gemini'] = list(g.values())
print(json.dumps(out))
`, join(FORMATS, 'claude-code/history.jsonl'), join(FORMATS, 'gemini/tmp/3b9c0a1f2e4d/logs.json')], { encoding: 'utf8' });
    expect(py.status, py.stderr).toBe(0);
    const expected = JSON.parse(py.stdout) as { claude: string[][]; pasted: string[]; gemini: string[][] };
    const claude = readDocumentFile(join(FORMATS, 'claude-code/history.jsonl'));
    const views = claude.doc.conversations.map((c) => c.records.map((r) => claude.codec.view(r)));
    expect(views.map((c) => c.map((v) => (v.parts[0] as { text: string }).text))).toEqual(expected.claude);
    expect(views.flat().flatMap((v) => v.parts.slice(1).map((p) => (p as { text: string }).text))).toEqual(expected.pasted);
    expect(claude.doc.conversations.map((c) => c.meta?.cwd)).toEqual(['/home/dev/code/shop', '/home/dev/code/docs-site']);
    const gemini = readDocumentFile(join(FORMATS, 'gemini/tmp/3b9c0a1f2e4d/logs.json'));
    expect(gemini.doc.conversations.map((c) => c.records.map((r) => sentText(gemini.codec.view(r))))).toEqual(expected.gemini);
  });

  it('Copilot CLI workspace.yaml: the session it describes, named, read-only; a workspace.yaml of another tool is not taken for it', () => {
    const w = readDocumentFile(join(FORMATS, 'copilot-cli/session-state/0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0/workspace.yaml'));
    expect(w.codec.id).toBe('copilot-cli-workspace');
    expect(w.codec.readOnly).toMatch(/events\.jsonl/);
    expect(w.doc.conversations[0]).toMatchObject({ title: 'Fix tax rounding in the cart', meta: { sessionId: '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0', cwd: '/home/dev/code/shop', gitBranch: 'fix/tax-rounding' } });
    const v = w.codec.view(w.doc.conversations[0].records[0]);
    expect(v).toMatchObject({ meta: true, normalRole: 'other', id: '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0' });
    expect(sentText(v)).toContain('branch: fix/tax-rounding');
    // A swarms history that happens to be called workspace.yaml stays a swarms history.
    const swarms = parseDocumentText('- role: user\n  content: hi\n', 'workspace.yaml');
    expect(swarms.codec.id).toBe('swarms-yaml');
  });

  it('a line that is no entry, after entries, is refused naming the file and line', () => {
    const text = `${JSON.stringify({ display: 'a', pastedContents: {}, timestamp: 1, project: '/p' })}\n{"role":"user"}\n`;
    expect(() => parseDocumentText(text, 'history.jsonl')).toThrow(/history\.jsonl:2:1: this line is not an entry of Claude Code prompt history/);
  });
});
