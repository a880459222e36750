// Where a Gemini CLI session ran, as the session list shows it: the folder its store names, never the hash of it.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Catalog, CatalogSync, factsOf } from '../../src/core/catalog/index.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { tempDir } from '../helpers.js';

/** Gemini CLI's project id: the SHA-256 of the folder as it was started in it (getProjectHash). */
const hashOf = (folder: string) => createHash('sha256').update(folder).digest('hex');

const at = (s: number) => new Date(Date.parse('2026-02-03T10:00:00Z') + s * 1000).toISOString();
const user = (id: string, s: number, content: string) => ({ id, timestamp: at(s), type: 'user', content });
const gemini = (id: string, s: number, toolCalls: Array<{ name: string; args: Record<string, unknown> }>) => ({
  id,
  timestamp: at(s),
  type: 'gemini',
  content: '',
  toolCalls: toolCalls.map((c, k) => ({ id: `${c.name}-${s}-${k}`, name: c.name, args: c.args, status: 'success', timestamp: at(s), result: [{ functionResponse: { id: `${c.name}-${s}-${k}`, name: c.name, response: { output: 'ok' } } }] })),
  thoughts: [],
  model: 'gemini-2.5-pro',
  tokens: { input: 900, output: 40, cached: 0, thoughts: 0, tool: 0, total: 940 },
});

/** A session file of the older layout (`tmp/<project hash>/chats/session-….json`), the project's hash inside it. */
function session(root: string, folderId: string, projectHash: string, messages: unknown[], name = 'session-2026-02-03T10-00-1a2b3c4d.json'): string {
  const dir = join(root, 'tmp', folderId, 'chats');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ sessionId: '1a2b3c4d-0000-4000-8000-000000000001', projectHash, startTime: at(0), lastUpdated: at(9), messages }, null, 2));
  return file;
}

const projectOf = (file: string) => factsOf(file, readDocumentFile(file)).sessions[0].project;

/** A folder's names: spaces, accents and astral characters, dots, never a separator or a control character. */
const name = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 10 })
  .filter((s) => !/[\\/:*?"<>|]/.test(s) && ![...s].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f') && s.trim() === s && !/\.$/.test(s));
const folder = fc.oneof(
  fc.array(name, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join('/')}`),
  fc.tuple(fc.constantFrom('C', 'd', 'Z'), fc.array(name, { minLength: 1, maxLength: 5 })).map(([drive, parts]) => `${drive}:\\${parts.join('\\')}`),
);

describe('a Gemini CLI session’s project', () => {
  it('is the folder a tool call names under it, proved by the hash the file keeps (property over folders, POSIX and Windows)', () => {
    fc.assert(
      fc.property(folder, fc.array(name, { maxLength: 3 }), name, fc.constantFrom('args', 'command', 'slashes'), (project, below, file, how) => {
        const root = tempDir();
        const sep = project.startsWith('/') ? '/' : '\\';
        const path = [project, ...below, file].join(sep);
        // Named whole as an argument, inside a shell command (where a path ends at a space, a quote or a shell's
        // punctuation), or (Windows) with forward slashes.
        const call =
          how === 'command' && !/[\s'"`$;|&()<>,]/.test(path)
            ? { name: 'run_shell_command', args: { command: `cat ${path} | head -5`, description: 'Look at it.' } }
            : how === 'slashes' && sep === '\\'
              ? { name: 'read_file', args: { absolute_path: path.replace(/\\/g, '/') } }
              : { name: 'read_file', args: { absolute_path: path } };
        const f = session(root, hashOf(project), hashOf(project), [user('u1', 0, 'Look at the config.'), gemini('g1', 1, [call])]);
        // A drive is one however its letter is spelled: listed upper-cased, as other tools' paths are.
        expect(projectOf(f)).toBe(/^[a-z]:/.test(project) ? project[0].toUpperCase() + project.slice(1) : project);
      }),
      { numRuns: 120 },
    );
  });

  it('is the folder the CLI told the model it works in, for a checkpoint (/chat save) in the project’s folder', () => {
    const root = tempDir();
    const project = '/home/dev/shop front';
    const dir = join(root, 'tmp', hashOf(project));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'checkpoint-before-refactor.json');
    const history = [
      { role: 'user', parts: [{ text: `This is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Tuesday.\nMy operating system is: linux\nI'm currently working in the directory: ${project}\nHere is the folder structure of the current working directories:\n` }] },
      { role: 'model', parts: [{ text: 'Got it. Thanks for the context!' }] },
      { role: 'user', parts: [{ text: 'Rename the cart module.' }] },
      { role: 'model', parts: [{ text: 'Done.' }] },
    ];
    writeFileSync(file, JSON.stringify(history, null, 2));
    expect(projectOf(file)).toBe(project);
  });

  it('is the folder `.project_root` names (the newer layout, tmp/<name>/), else the registry’s folder of that name', () => {
    const root = tempDir();
    const messages = [user('u1', 0, 'hello'), gemini('g1', 1, [])];
    const named = session(root, 'shop-front', hashOf('/home/dev/shop-front'), messages);
    writeFileSync(join(root, 'tmp', 'shop-front', '.project_root'), '/home/dev/shop-front');
    expect(projectOf(named)).toBe('/home/dev/shop-front');
    // No marker: ~/.gemini/projects.json maps the folder to the name.
    const listed = session(root, 'cart', hashOf('/home/dev/cart'), messages);
    writeFileSync(join(root, 'projects.json'), JSON.stringify({ projects: { '/home/dev/shop-front': 'shop-front', '/home/dev/cart': 'cart', '/srv/old app': 'old-app' } }, null, 2));
    expect(projectOf(listed)).toBe('/home/dev/cart');
    // A folder of the older layout whose hash is one of the registry's folders (or a folder above one).
    expect(projectOf(session(root, hashOf('/srv/old app'), hashOf('/srv/old app'), messages))).toBe('/srv/old app');
    expect(projectOf(session(root, hashOf('/srv'), hashOf('/srv'), messages))).toBe('/srv');
  });

  it('is a name people can read where nothing says the folder: its hash cut short, or the newer layout’s name', () => {
    const root = tempDir();
    const hash = hashOf('/home/dev/nowhere-named');
    const messages = [user('u1', 0, 'say hello'), gemini('g1', 1, [{ name: 'read_file', args: { absolute_path: '/etc/hosts' } }])];
    expect(projectOf(session(root, hash, hash, messages))).toBe(`Gemini project ${hash.slice(0, 6)}…`);
    expect(projectOf(session(root, 'dashboard', hash, messages))).toBe('dashboard');
    // A folder a session names but whose hash is not the project's is not taken for it.
    expect(projectOf(session(root, hash, hash, messages))).not.toBe('/etc');
  });

  it('the session list and usage by project show the folder, the JSONL sessions’ too', async () => {
    const root = tempDir();
    const project = 'D:\\work\\tax app';
    session(root, hashOf(project), hashOf(project), [user('u1', 0, 'Why is the total off?'), gemini('g1', 1, [{ name: 'read_file', args: { absolute_path: `${project}\\src\\total.ts` } }])]);
    const dir = join(root, 'tmp', 'tax-app', 'chats');
    mkdirSync(dir, { recursive: true });
    const header = { sessionId: '1a2b3c4d-0000-4000-8000-000000000002', projectHash: hashOf(project), startTime: at(0), lastUpdated: at(9), kind: 'main', directories: [`${project}\\docs`] };
    writeFileSync(join(dir, 'session-2026-02-03T11-00-1a2b3c4e.jsonl'), [header, user('u2', 2, 'And the rounding?'), gemini('g2', 3, [])].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const catalog = Catalog.open(join(tempDir(), 'catalog.sqlite'));
    await new CatalogSync(catalog).syncFolders([root]);
    expect(catalog.sessions({ under: [root] }).map((s) => s.project)).toEqual([project, project]);
    expect(catalog.usage('project', [root]).map((r) => [r.key, r.sessions])).toEqual([[project, 2]]);
    catalog.close();
  });
});
