// Saves that cost what they change: a file saved again and again keeps no copy of itself per save in the
// document service (a 40 MB JSON grew the service ~38 MB a save, until at save 102 it ran out of heap).
// bench/saves.ts runs 1,000 saves of a 40 MB file and prints the figures.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { tempDir } from '../helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

/** The heap in use once everything unreachable is collected. */
function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** The least-squares slope of `ys` over their indexes. */
function slope(ys: readonly number[]): number {
  const n = ys.length;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

describe('saving a big file again and again', () => {
  it('a 7.7 MB JSON list, one edit and a save, 24 times: the service holds no more after the last than after the fourth', async () => {
    const dir = tempDir();
    const n = 20_000;
    const messages = Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'the agent reads the file and plans the change '.repeat(1 + (i % 13))}` }));
    const path = 'big.json';
    const text = JSON.stringify(messages, null, 2);
    writeFileSync(join(dir, path), text);
    const bytes = Buffer.byteLength(text);
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: false, searchIndexFile: false, watch: false });
    runtimes.push(rt);
    const call = async (channel: string, input: unknown) => {
      const r = await dispatchNow(rt.handlers, channel, input);
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    };
    await call('conversation:open', { path, conversation: 0 });
    const heap: number[] = [];
    const rss: number[] = [];
    for (let k = 0; k < 24; k++) {
      await call('edit:apply', { path, conversation: 0, command: { type: 'set-text', index: 100 + (k % 50) * 3, text: `edit ${k}` } });
      await call('edit:save', { path });
      if (k >= 3) {
        heap.push(heapAfterGc());
        rss.push(process.memoryUsage().rss);
      }
    }
    const perSave = slope(heap);
    console.log(`${(bytes / 1e6).toFixed(1)} MB: heap ${(heap[0] / 1e6).toFixed(0)} → ${(heap.at(-1)! / 1e6).toFixed(0)} MB over 20 saves (${(perSave / 1e3).toFixed(0)} kB a save); rss ${(rss[0] / 1e6).toFixed(0)} → ${(rss.at(-1)! / 1e6).toFixed(0)} MB`);
    // A copy of the file kept per save grows the heap by its size each time; allocation noise is far below a tenth of it.
    expect(perSave).toBeLessThan(bytes / 10);
    expect(heap.at(-1)! - heap[0]).toBeLessThan(bytes);
  }, 300_000);
});
