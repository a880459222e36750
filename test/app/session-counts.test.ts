// The session list (the catalog) and the opened session's header count the same messages: every message of the
// session, its history before each compaction, its other branches and its inline sub-agents' threads included; the
// header says how many of them it shows and what the others are.
import { writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/core/index.js';
import { Catalog, CatalogSync, inlineReaders } from '../../src/core/catalog/index.js';
import { dispatch } from '../../app/service/dispatch.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import type { Skeleton } from '../../app/shared/contract.js';
import { tempDir } from '../helpers.js';
import { claudeCodeSession } from '../support/claude-code-sessions.js';
import { REALFILES } from '../support/realfiles.js';

const runtimes: Runtime[] = [];
afterAll(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

/** The session list's count of a file's session, as the catalog has it after a sync. */
function listed(dir: string, file: string): number | undefined {
  const catalog = Catalog.open(':memory:');
  try {
    new CatalogSync(catalog, inlineReaders).update(file);
    return catalog.sessions({ under: [dir] }).find((s) => s.path === file && s.conversation === 0)?.messages;
  } finally {
    catalog.close();
  }
}

/** The skeleton the app opens a file's first conversation (its session's own thread) with. */
async function opened(dir: string, file: string): Promise<Skeleton> {
  const rt = createRuntime({ dirs: [dir], mode: 'browser', watch: false, tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  const r = await dispatch(rt.handlers, 'conversation:open', { path: relative(dir, file), conversation: 0 });
  if (!r.ok) throw new Error(r.error.message);
  return r.value as Skeleton;
}

describe("the session list's count and the opened session's", () => {
  it('are the same for Claude Code sessions with compactions, rewinds, abandoned replies and inline sub-agents; the rows shown and the others add up to it (property)', async () => {
    const dir = tempDir();
    let n = 0;
    let apart = 0;
    await fc.assert(
      fc.asyncProperty(claudeCodeSession, async (s) => {
        const file = join(dir, `${String(++n).padStart(8, '0')}-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl`);
        writeFileSync(file, s.text);
        const count = listed(dir, file);
        const skeleton = await opened(dir, file);
        // A file of no message is no session in the list.
        if (count === undefined) return;
        expect(skeleton.session?.messages).toBe(count);
        const { branches, threads } = skeleton.session!;
        const earlier = skeleton.whole ? 0 : (skeleton.earlier ?? 0);
        expect(skeleton.count + earlier + branches + threads).toBe(count);
        if (count !== skeleton.count) apart++;
      }),
      { numRuns: 60 },
    );
    // Sessions whose rows shown are not all of it were among them (else the property says little).
    expect(apart).toBeGreaterThan(10);
  });

  it.runIf(REALFILES)('are the same for the costliest real session (a compaction and two re-typed prompts): 19 since the compaction, 560 before, 2 on other branches', async () => {
    const file = join(REALFILES!, 'claude-code', 'jtk-2.1.150', '-Users-dumitruvulpe-uw-telecom-mobile', '801ea086-c461-45be-aac3-f4b46d4a1c1a.jsonl');
    const dir = dirname(file);
    const count = listed(dir, file);
    const skeleton = await opened(dir, file);
    expect(skeleton.session?.messages).toBe(count);
    expect({ shown: skeleton.count, earlier: skeleton.earlier, ...skeleton.session }).toEqual({ shown: 19, earlier: 560, messages: 581, branches: 2, threads: 0 });
  });
});
