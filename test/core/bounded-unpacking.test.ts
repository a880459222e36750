// The unpacking behind the caps, file by file: ZIP directories as Python writes them (ZIP64 too), zstd files of
// several frames, the listing's budget for containers, and the assembled JSON of a container.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarizeHead, summarizeWhole } from '../../app/service/listing/file-summary.js';
import { containerJson } from '../../src/core/formats/containers/container.js';
import { inflatedHead, unzstdBounded } from '../../src/core/formats/containers/inflate.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { TooBigError } from '../../src/core/formats/errors.js';
import { LISTING_READ_BYTES, MAX_ZSTD_WINDOW_BYTES } from '../../src/core/limits.js';
import { FIXTURES, tempDir } from '../helpers.js';
import { gzipBomb, hugeLine, zstdBomb } from '../support/bombs.js';

const MiB = 1024 * 1024;
const F = join(FIXTURES, 'formats');
const SESSION = readFileSync(join(F, 'claude-code', 'session.jsonl'), 'utf8');

/** What a file shows: per conversation, its title and each message's role and parts. */
const shown = (file: string) => {
  const o = readDocumentFile(file);
  return o.doc.conversations.map((c) => ({ title: c.title, messages: c.records.map((r) => o.codec.view(r)).map((v) => ({ role: v.normalRole, parts: v.parts })) }));
};

describe('ZIP archives read from their central directory', () => {
  it('an .eval Python wrote with ZIP64 records (force_zip64) reads as the one without', () => {
    const dir = tempDir();
    const plain = join(F, 'inspect', '2025-12-01T11-00-00_gsm8k_def456.eval');
    const target = join(dir, 'zip64.eval');
    const py = spawnSync('python3', [
      '-c',
      `import sys, zipfile
src = zipfile.ZipFile(sys.argv[1])
with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as out:
    for info in src.infolist():
        with out.open(info.filename, 'w', force_zip64=True) as f:
            f.write(src.read(info.filename))`,
      plain,
      target,
    ]);
    expect(py.status, String(py.stderr)).toBe(0);
    // Python wrote the sizes as ZIP64 extra fields: 0xFFFFFFFF in the local headers.
    expect(readFileSync(target).includes(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toBe(true);
    expect(shown(target)).toEqual(shown(plain));
  });

  it('a cut archive and one whose pieces are stored (not deflated) are told apart', () => {
    const dir = tempDir();
    const bytes = readFileSync(join(F, 'inspect', '2025-12-01T11-00-00_gsm8k_def456.eval'));
    writeFileSync(join(dir, 'cut.eval'), bytes.subarray(0, bytes.length - 30));
    expect(() => readDocumentFile(join(dir, 'cut.eval'))).toThrow(/cut\.eval: not a whole ZIP archive/);
    const py = spawnSync('python3', ['-c', `import sys, zipfile\nsrc = zipfile.ZipFile(sys.argv[1])\nwith zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_STORED) as out:\n    [out.writestr(i.filename, src.read(i.filename)) for i in src.infolist()]`, join(F, 'inspect', '2025-12-01T11-00-00_gsm8k_def456.eval'), join(dir, 'stored.eval')]);
    expect(py.status, String(py.stderr)).toBe(0);
    expect(shown(join(dir, 'stored.eval'))).toEqual(shown(join(F, 'inspect', '2025-12-01T11-00-00_gsm8k_def456.eval')));
  });
});

describe('zstd files frame by frame', () => {
  const text = (s: string) => ({ prefix: s, bytes: 0, suffix: '' });

  it('frames that declare their size, frames that do not, and skippable frames read as their texts joined', () => {
    const lines = SESSION.split('\n');
    const half = lines.slice(0, 5).join('\n') + '\n';
    const rest = lines.slice(5).join('\n');
    const skippable = Buffer.concat([Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0]), Buffer.from('abc')]);
    const bytes = Buffer.concat([zstdBomb(text(half), { declared: true }), skippable, zstdBomb(text(rest), { windowLog: 17 })]);
    expect(Buffer.from(unzstdBounded('x.jsonl.zst', bytes, 1024 * MiB)).toString('utf8')).toBe(SESSION);
    const dir = tempDir();
    writeFileSync(join(dir, 'session.jsonl.zst'), bytes);
    expect(shown(join(dir, 'session.jsonl.zst'))).toEqual(shown(join(F, 'claude-code', 'session.jsonl')));
  });

  it(`a frame without its size asking for a window past ${MAX_ZSTD_WINDOW_BYTES / MiB} MiB is refused before it is decoded; one that says its size is not`, () => {
    const big = zstdBomb(text('{}\n'), { windowLog: 31 });
    expect(() => unzstdBounded('big.jsonl.zst', big, 1024 * MiB)).toThrow(TooBigError);
    expect(() => unzstdBounded('big.jsonl.zst', big, 1024 * MiB)).toThrow(/asks for a 2\.0 GiB window, more than the 8 MiB read here/);
    expect(Buffer.from(unzstdBounded('sized.jsonl.zst', zstdBomb(text('{}\n'), { windowLog: 31, declared: true }), 1024 * MiB)).toString()).toBe('{}\n');
  });

  it('a frame declaring less than it holds is decoded into what it declared, and refused as damaged', () => {
    const lying = zstdBomb(hugeLine(4 * MiB), { declared: 1000 });
    expect(() => unzstdBounded('lying.jsonl.zst', lying, 1024 * MiB)).toThrow(/lying\.jsonl\.zst: not a whole zstd file/);
  });

  it('a cut file is said to be cut, not read short', () => {
    const whole = zstdBomb(text(SESSION));
    expect(() => unzstdBounded('cut.jsonl.zst', whole.subarray(0, whole.length - 10), 1024 * MiB)).toThrow(/cut\.jsonl\.zst: not a whole zstd file \(a frame cut short\)/);
  });
});

describe('the listing unpacks no container past its budget', () => {
  it('a gzip session within the budget gets its exact counts; past it, its format from the first kilobytes, no error', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'small.jsonl.gz'), gzipBomb({ prefix: SESSION, bytes: 0, suffix: '' }));
    // One line more than the listing's budget, after the session's lines: what the listing never reaches.
    const big = join(dir, 'big.jsonl.gz');
    writeFileSync(big, gzipBomb({ prefix: SESSION + hugeLine(LISTING_READ_BYTES).prefix, bytes: LISTING_READ_BYTES, suffix: hugeLine(0).suffix }));
    expect(summarizeWhole(join(dir, 'small.jsonl.gz'))).toMatchObject({ format: 'claude-code', messages: shown(join(F, 'claude-code', 'session.jsonl'))[0].messages.length });
    expect(summarizeHead(big, readFileSync(big).length)).toEqual({ format: 'claude-code', formatLabel: 'Claude Code session (JSONL)' });
    expect(summarizeWhole(big)).toEqual({ format: 'claude-code', formatLabel: 'Claude Code session (JSONL)' });
    // Opened, it is read whole: it is well under the cap.
    expect(readDocumentFile(big).doc.conversations[0].records.length).toBeGreaterThan(0);
  });

  it('the first bytes of a bomb unpack to a few kilobytes, however much it holds', () => {
    // A kilobyte of this small file's deflate: its first lines.
    const head = Buffer.from(inflatedHead(readFileSync(join(F, 'compressed', 'session.jsonl.gz')), 4096)!).toString();
    expect(head.length).toBeGreaterThan(500);
    expect(SESSION.startsWith(head)).toBe(true);
    expect(inflatedHead(gzipBomb(hugeLine(64 * MiB)), 4096)!.length).toBe(4096);
    expect(inflatedHead(zstdBomb(hugeLine(64 * MiB)), 4096)!.length).toBe(4096);
  });
});

describe('JSON a container assembles', () => {
  it('is indented as its tool writes it, unless indenting alone takes it past the cap (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const pretty = JSON.stringify(v, null, 2);
        expect(containerJson(v, pretty.length, 'x')).toBe(pretty);
        if (pretty !== JSON.stringify(v)) expect(containerJson(v, pretty.length - 1, 'x')).toBe(JSON.stringify(v));
      }),
      { numRuns: 500, seed: 38 },
    );
  });

  it('nested past what is read is refused, naming the file', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 300; i++) deep = [deep];
    expect(() => containerJson({ deep }, 1024 * MiB, 'log.jsonl')).toThrow(/log\.jsonl: what it holds is nested more than 256 levels deep/);
  });
});
