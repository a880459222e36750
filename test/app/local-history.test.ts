import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalHistory } from '../../app/service/editing/local-history.js';
import { tempDir } from '../helpers.js';

/** A clock a second ahead at each reading: which version is older never depends on the machine's speed. */
const ticking = (t = 1_700_000_000_000) => () => (t += 1000);
const kb = (n: number, fill = 'x') => Buffer.from(fill.repeat(n * 1024));

describe('local history stays within its limits, each file keeping its newest version', () => {
  it('keeps at most N versions of a file, newest first, each readable', () => {
    const history = new LocalHistory(join(tempDir(), 'h'), { versions: 3 });
    for (let i = 0; i < 6; i++) history.recordBytes('/w/a.json', Buffer.from(`v${i}`));
    const versions = history.list('/w/a.json');
    expect(versions.map((v) => history.read('/w/a.json', v.id).toString())).toEqual(['v5', 'v4', 'v3']);
  });

  it('versions taken in the same millisecond keep the order they were taken in', () => {
    const history = new LocalHistory(join(tempDir(), 'h'), { versions: 3, clock: () => 1_700_000_000_000 });
    for (let i = 0; i < 6; i++) history.recordBytes('/w/a.json', Buffer.from(i === 4 ? 'v2' : `v${i}`));
    expect(history.list('/w/a.json').map((v) => history.read('/w/a.json', v.id).toString())).toEqual(['v5', 'v2', 'v3']);
  });

  it('drops a file’s older versions past its byte limit, but never its newest even when that alone is bigger', () => {
    const history = new LocalHistory(join(tempDir(), 'h'), { fileBytes: 10 * 1024 });
    history.recordBytes('/w/a.json', kb(4, 'a'));
    history.recordBytes('/w/a.json', kb(4, 'b'));
    expect(history.list('/w/a.json')).toHaveLength(2);
    history.recordBytes('/w/a.json', kb(4, 'c'));
    expect(history.list('/w/a.json').map((v) => history.read('/w/a.json', v.id).toString()[0])).toEqual(['c', 'b']);
    history.recordBytes('/w/a.json', kb(20, 'd'));
    expect(history.list('/w/a.json').map((v) => history.read('/w/a.json', v.id).toString()[0])).toEqual(['d']);
  });

  it('keeps every file’s versions together within the total, the oldest going first', () => {
    const history = new LocalHistory(join(tempDir(), 'h'), { totalBytes: 20 * 1024, clock: ticking() });
    history.recordBytes('/w/a.json', kb(5, 'a'));
    history.recordBytes('/w/b.json', kb(5, 'b'));
    history.recordBytes('/w/a.json', kb(5, 'A'));
    history.recordBytes('/w/b.json', kb(5, 'B'));
    expect(history.list('/w/a.json')).toHaveLength(2);
    // Past 20 KB: the oldest version of all (a's first) goes; each file's newest stays whatever happens.
    history.recordBytes('/w/c.json', kb(5, 'c'));
    expect(history.list('/w/a.json').map((v) => history.read('/w/a.json', v.id).toString()[0])).toEqual(['A']);
    expect(history.list('/w/b.json')).toHaveLength(2);
    history.recordBytes('/w/d.json', kb(30, 'd'));
    for (const f of ['a', 'b', 'c', 'd']) expect(history.list(`/w/${f}.json`)).toHaveLength(1);
  });
});
