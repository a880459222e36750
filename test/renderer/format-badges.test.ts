import { describe, expect, it } from 'vitest';
import { BUILT_IN_CODECS } from '../../src/core/formats/all.js';
import { FORMAT_BADGE } from '../../app/renderer/features/sidebar/tree.js';

describe('the Files list’s format badges', () => {
  // A badge without a short name showed the codec's id ("COPILOT-CLI-WORKSPACE") and left the file's name "w..".
  it('name every format a file can be read as, each in a few letters', () => {
    const missing = BUILT_IN_CODECS.filter((c) => !FORMAT_BADGE[c.id]).map((c) => c.id);
    expect(missing).toEqual([]);
    for (const c of BUILT_IN_CODECS) expect(FORMAT_BADGE[c.id].length, c.id).toBeLessThanOrEqual(16);
  });
});
