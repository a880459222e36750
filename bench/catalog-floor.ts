// A floor for the catalog's build on this machine: every line parsed and every message's text indexed (the
// catalog's kind of FTS5 index), split over as many threads as the catalog reads with, and nothing else (no
// sessions, usage, threads or rows). What the catalog does on top of this is what it can still save.
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';

export async function indexFloor(files: readonly string[], dir: string, width: number): Promise<{ ms: number; rows: number }> {
  const t = performance.now();
  const shards = Array.from({ length: width }, (_, i) => files.filter((_, k) => k % width === i));
  const rows = await Promise.all(
    shards.map(
      (shard, i) =>
        new Promise<number>((resolve, reject) => {
          const w = new Worker(new URL('./catalog-floor-worker.mjs', import.meta.url), { workerData: { files: shard, db: join(dir, `floor-${i}.sqlite`), base: i * 1e9 + 1 } });
          w.once('message', resolve);
          w.once('error', reject);
        }),
    ),
  );
  return { ms: performance.now() - t, rows: rows.reduce((a, b) => a + b, 0) };
}
