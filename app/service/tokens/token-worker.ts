import { parentPort } from 'node:worker_threads';
import { runTokenJob, type TokenJob } from './token-job.js';

// Token counting off the main thread: the encoders are built once here and stay warm between jobs.
parentPort?.on('message', async (msg: { id: number; job: TokenJob }) => {
  try {
    const result = await runTokenJob(msg.job, (done, total) => parentPort?.postMessage({ id: msg.id, progress: { done, total } }));
    parentPort?.postMessage({ id: msg.id, result });
  } catch (e) {
    parentPort?.postMessage({ id: msg.id, error: (e as Error).message });
  }
});
