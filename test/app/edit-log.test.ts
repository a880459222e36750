// The router's edit log: a save the service stopping cut off keeps what it was writing, so that the service
// started again finds the file saved (and makes no edit twice); a save that answered drops it.
import { describe, expect, it } from 'vitest';
import { EditLog } from '../../app/service/backend/edit-log.js';

const STOPPED = { ok: false as const, error: { code: 'INTERNAL' as const, message: 'the document service stopped (exit 1)' } };

describe('the edit log around a save', () => {
  it('a save cut off by the service stopping keeps what it was writing; one refused or answered forgets it', () => {
    const log = new EditLog();
    log.start('/f.json', undefined, undefined);
    log.answered('/f.json', 'edit:apply', { path: 'f.json' }, { ok: true, value: { version: 1 } });
    log.writing('/f.json', { size: 10, mtimeMs: 5 });
    expect(log.answered('/f.json', 'edit:save', { path: 'f.json' }, STOPPED, true)).toBeUndefined();
    expect(log.get('/f.json')?.writing).toEqual({ size: 10, mtimeMs: 5 });
    expect(log.get('/f.json')?.entries).toHaveLength(1);
    // Refused by the service itself (it ran on): nothing was written.
    expect(log.answered('/f.json', 'edit:save', { path: 'f.json' }, { ok: false, error: { code: 'STALE', message: 'changed on disk' } })).toBeUndefined();
    expect(log.get('/f.json')?.writing).toBeUndefined();
    log.writing('/f.json', { size: 11, mtimeMs: 6 });
    expect(log.answered('/f.json', 'edit:save', { path: 'f.json' }, { ok: true, value: {} })).toBe('saved');
    expect(log.get('/f.json')?.writing).toBeUndefined();
  });
});
