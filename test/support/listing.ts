import { dispatch } from '../../app/service/dispatch.js';
import type { Runtime } from '../../app/service/runtime.js';
import type { DirEntry } from '../../app/shared/contract.js';
import { withDetails } from '../../app/shared/dir-details.js';

/** `dir:list`, then the `dir:details` events it is followed by, merged as the renderer merges them, until none is pending. */
export async function listFully(rt: Runtime, input: { root?: string } = {}): Promise<DirEntry[]> {
  const details: DirEntry[] = [];
  const before = rt.onEvent;
  rt.onEvent = (event, payload) => {
    if (event === 'dir:details') for (const e of (payload as { entries: DirEntry[] }).entries) details.push(e);
    before(event, payload);
  };
  try {
    const answer = await dispatch(rt.handlers, 'dir:list', input);
    if (!answer.ok) throw new Error(answer.error.message);
    let entries = (answer.value as { entries: DirEntry[] }).entries;
    const deadline = Date.now() + 20_000;
    while ((entries = withDetails(entries, details)).some((e) => e.pending)) {
      if (Date.now() > deadline) throw new Error(`still pending: ${entries.filter((e) => e.pending).map((e) => e.path).join(', ')}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return entries;
  } finally {
    rt.onEvent = before;
  }
}
