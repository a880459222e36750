// A search hit shows its role as the table does (the file's own word), while search filters by the normalised one.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import '../../src/core/index.js';
import { dispatch } from '../../app/service/dispatch.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { ROOT, tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

type Hit = { path: string; conversation: number; index: number; role: string; spelled?: string };

describe('search hits and the roles the table shows', () => {
  it("an Aider notice is found under 'other' and shown as the table shows it, 'tool'", async () => {
    const dir = join(ROOT, 'examples', 'agents', 'aider');
    const rt = createRuntime({ dirs: [dir], mode: 'browser', watch: false, tokens: new InlineTokenService(), historyDir: tempDir() });
    runtimes.push(rt);
    let hits: Hit[] = [];
    for (let k = 0; k < 100 && hits.length === 0; k++) {
      const r = await dispatch(rt.handlers, 'search:query', { query: 'the', roles: ['other'], limit: 2000 });
      hits = r.ok ? (r.value as { hits: Hit[] }).hits : [];
      if (hits.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(hits.length).toBeGreaterThan(0);
    const lines = await dispatch(rt.handlers, 'search:snippets', { query: 'the', hits: hits.map(({ path, conversation, index }) => ({ path, conversation, index })) });
    const spelled = lines.ok ? (lines.value as { hits: Hit[] }).hits.map((h) => h.spelled) : [];
    for (const [k, h] of hits.entries()) {
      const row = await dispatch(rt.handlers, 'conversation:rows', { path: h.path, conversation: h.conversation, start: h.index, count: 1 });
      const role = row.ok ? (row.value as { rows: Array<{ role: string }> }).rows[0].role : undefined;
      expect(h.role).toBe('other');
      expect(spelled[k] ?? h.role, `${h.path} ${h.index}`).toBe(role);
    }
    expect(spelled).toContain('tool');
  });
});
