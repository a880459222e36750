import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fateColumns, keptEdges, messageAtPixel, STRIP } from '../../app/renderer/features/window/fate-columns.js';

describe('the fate strip (minimap and turn strip)', () => {
  it('each pixel shows its messages by their most telling fate; past the fates given, nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 500 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 400 }), (fates, extra, pixels) => {
        const n = fates.length + extra;
        const cols = fateColumns(Uint8Array.from(fates), n, pixels);
        expect(cols.length).toBe(pixels);
        for (let p = 0; p < pixels; p++) {
          const from = Math.floor((p * n) / pixels);
          const to = Math.max(from + 1, Math.floor(((p + 1) * n) / pixels));
          const mine = fates.slice(from, Math.min(to, fates.length));
          if (n === 0 || mine.length === 0) expect(cols[p]).toBe(STRIP.empty);
          else if (mine.includes(STRIP.cut)) expect(cols[p]).toBe(STRIP.cut);
          else if (mine.includes(STRIP.kept)) expect(cols[p]).toBe(STRIP.kept);
          else if (mine.includes(STRIP.summarised)) expect(cols[p]).toBe(STRIP.summarised);
          else expect(cols[p]).toBe(STRIP.dropped);
        }
      }),
    );
  });

  it('marks where the kept part meets the rest, and a click lands on the message under it', () => {
    expect(keptEdges(Uint8Array.from([1, 1, 0, 0, 2, 1, 3, 0]))).toEqual([2, 5, 7]);
    expect(keptEdges(Uint8Array.from([0, 0, 0]))).toEqual([]);
    expect(messageAtPixel(0, 100, 3000)).toBe(0);
    expect(messageAtPixel(99.9, 100, 3000)).toBe(2997);
    expect(messageAtPixel(150, 100, 3000)).toBe(2999);
    expect(messageAtPixel(-5, 100, 3000)).toBe(0);
  });
});
