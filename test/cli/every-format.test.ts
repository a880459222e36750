import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { displayText } from '../../src/core/formats/model.js';
import { listCodecs } from '../../src/core/formats/registry.js';
import { FIXTURES, ROOT } from '../paths.js';
import { fixtureFiles } from '../support/fixture-files.js';

// The real bin as a child process, over every fixture of every format (compressed, archived and stored ones too).
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const DIR = join(FIXTURES, 'formats');
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

const files = fixtureFiles(DIR, 'all');
const read = new Map(files.map((f) => [f, readDocumentFile(join(DIR, f))]));
/** One fixture per format: what show and search are asked of. */
const perFormat = [...new Map(files.map((f) => [read.get(f)!.codec.id, f])).entries()];

/** A word of the file's first message with text that is long enough to be found, and found as it is written. */
function wordOf(file: string): string | undefined {
  const { codec, doc } = read.get(file)!;
  for (const c of doc.conversations)
    for (const r of c.records) {
      const words = displayText(codec.view(r)).match(/\b[A-Za-z]{7,}\b/g);
      if (words) return words.sort((a, b) => b.length - a.length)[0];
    }
  return undefined;
}

describe('every format through the real bin: ls, show and search', () => {
  it('ls lists every fixture in its format, none as an error', () => {
    const r = cli('ls', DIR, '--json');
    expect(r.code, r.stderr).toBe(0);
    const listed = (JSON.parse(r.stdout) as { files: Array<{ path: string; format?: string; error?: string; messages?: number }> }).files;
    expect(listed.filter((f) => f.error)).toEqual([]);
    expect(new Map(listed.map((f) => [f.path, f.format]))).toEqual(new Map(files.map((f) => [f, read.get(f)!.codec.id])));
    // Every format has a fixture here, but two kept beside it (swarms YAML in fixtures/swarms, Aider's input history in fixtures/aider).
    expect(listCodecs().map((c) => c.id).filter((id) => !perFormat.some(([f]) => f === id))).toEqual(['swarms-yaml', 'aider-input']);
  });

  it.each(perFormat)('show gives %s’s messages (%s)', (_format, file) => {
    const r = cli('show', join(DIR, file), '--json', '--thread', 'all');
    expect(r.code, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as { format: string; messages: Array<{ content: string }> };
    expect(shown.format).toBe(read.get(file)!.codec.id);
    const total = read.get(file)!.doc.conversations.reduce((n, c) => n + c.records.length, 0);
    expect(shown.messages.length).toBe(total);
  });

  it('search finds a word of each format’s fixture in that file', () => {
    const words = new Map(perFormat.map(([, f]) => [f, wordOf(f)] as const).filter((x): x is [string, string] => x[1] !== undefined));
    expect(words.size).toBeGreaterThanOrEqual(perFormat.length - 2);
    const r = cli('search', DIR, [...new Set(words.values())].map((w) => `\\b${w}\\b`).join('|'), '--regex', '--json');
    expect(r.code, r.stderr).toBe(0);
    const hits = new Set((JSON.parse(r.stdout) as { hits: Array<{ path: string }> }).hits.map((h) => h.path));
    for (const [file] of words) expect(hits.has(file), `${file}: ${words.get(file)}`).toBe(true);
  });
});
