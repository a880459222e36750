import { describe, expect, it } from 'vitest';
import '../../src/core/formats/all.js';
import { codecById } from '../../src/core/formats/registry.js';
import { projectOf } from '../../src/core/catalog/project.js';

describe("a session's project", () => {
  it('is one project however a tool spells a Windows drive letter (c:\\ from a URI, C:\\ from the shell)', () => {
    const continueCodec = codecById('claude-code')!;
    expect(projectOf('/s/a.json', continueCodec, 'c:\\Users\\acodu\\dev\\dashboard')).toBe('C:\\Users\\acodu\\dev\\dashboard');
    expect(projectOf('/s/a.json', continueCodec, 'C:\\Users\\acodu\\dev\\dashboard')).toBe('C:\\Users\\acodu\\dev\\dashboard');
    expect(projectOf('/s/a.json', continueCodec, 'd:/work/app')).toBe('D:/work/app');
    // A POSIX path, or a name that only starts like a drive, is kept as written.
    expect(projectOf('/s/a.json', continueCodec, '/home/dev/c:app')).toBe('/home/dev/c:app');
    expect(projectOf('/s/a.json', continueCodec, 'c:app')).toBe('c:app');
    // Claude Code's folder name decoded: its drive as the folder spells it, upper-cased alike.
    expect(projectOf('/p/projects/c--Users-me/x.jsonl', continueCodec, undefined)).toBe('C:\\Users\\me');
  });
});
