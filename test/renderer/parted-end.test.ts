// @vitest-environment happy-dom
// A session read a part at a time, as the window meets it through the real service: End (and Ctrl+End) from its
// first part lands on the session's last message, in its last part, without stepping through the parts between.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setBridge } from '../../app/renderer/api/client.js';
import { useApp } from '../../app/renderer/store/index.js';
import { paletteEntries } from '../../app/renderer/features/commands/palette-entries.js';
import { dispatch } from '../../app/service/dispatch.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { tempDir } from '../helpers.js';
import { listFully } from '../support/listing.js';

let rt: Runtime | undefined;
afterEach(async () => {
  useApp.setState({ openPath: undefined, skeleton: undefined, provisional: undefined, opening: false, pages: new Map(), selected: undefined, pendingJump: undefined, goToNote: undefined, entries: [] });
  await rt?.close();
  rt = undefined;
});

/** A Claude Code session of `n` turns, its last one said apart. */
function session(n: number, last: string): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const text = i === n - 1 ? last : `Turn ${i}: read the build log, "quoted" {braces} ünïcödé 🎉 and went on.`;
    lines.push(JSON.stringify({ type: i % 2 ? 'assistant' : 'user', uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, sessionId: 's1', timestamp: `2026-12-01T10:00:${String(i % 60).padStart(2, '0')}Z`, message: i % 2 ? { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text }] } : { role: 'user', content: text } }));
  }
  return lines.join('\n') + '\n';
}

const settled = async (done: () => boolean) => {
  for (let k = 0; k < 500 && !done(); k++) await new Promise((r) => setTimeout(r, 5));
};

/** A session of 1,401 messages read a part at a time (over three parts), its first part open in the store. */
async function openFirstPart(last: string) {
  const dir = tempDir();
  writeFileSync(join(dir, 'big.jsonl'), session(1401, last));
  rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: false, watch: false, wholeReadBytes: 100_000, partBytes: 40_000 });
  const handlers = rt.handlers;
  setBridge({ request: (channel, input) => dispatch(handlers, channel, input), subscribe: () => () => {} });
  const entries = await listFully(rt);
  const parts = entries.find((e) => e.path === 'big.jsonl')!.parts!;
  expect(parts.length).toBeGreaterThan(3);
  useApp.setState({ entries });
  await useApp.getState().openConversation(parts[0].path);
  return { handlers, parts };
}

describe('End in a session read a part at a time', () => {
  it('from the first part shows the last message of the session, not of the part', async () => {
      const last = 'The very last thing the agent said.';
      const { handlers, parts } = await openFirstPart(last);
      expect(useApp.getState().skeleton?.count).toBeGreaterThan(0);
      // What the table and the transcript do with the key: the conversation's end, wherever it is.
      useApp.getState().jumpTo('end');
      await settled(() => useApp.getState().openPath === parts.at(-1)!.path && !useApp.getState().opening && useApp.getState().selected !== undefined);
      const s = useApp.getState();
      expect(s.openPath).toBe(parts.at(-1)!.path);
      expect(s.selected).toBe(s.skeleton!.count - 1);
      const shown = await dispatch(handlers, 'conversation:message', { path: s.openPath, conversation: 0, index: s.selected });
      expect(shown.ok && (shown.value as { text: string }).text).toBe(last);
  });
});

describe('"go to #N" in a session read a part at a time', () => {
  it('from the first part, with the palette as the keyboard reaches it, opens the part that holds the session\'s message N and selects it; past the last it says how many there are', async () => {
    const { handlers, parts } = await openFirstPart('The last.');
    const firstCount = useApp.getState().skeleton!.count;
    // A number well past the first part: every line of this session is a message, so message N says "Turn N".
    const n = 1300;
    expect(n).toBeGreaterThan(firstCount);
    const [entry] = paletteEntries(`#${n}`, useApp.getState());
    expect(entry.label).toMatch(new RegExp(`^Go to message ${n} of the session`));
    expect(entry.enabled(useApp.getState())).toBe(true);
    entry.run(useApp.getState());
    await settled(() => useApp.getState().openPath !== parts[0].path && !useApp.getState().opening && useApp.getState().selected !== undefined);
    const s = useApp.getState();
    expect(s.openPath).not.toBe(parts[0].path);
    expect(parts.map((p) => p.path)).toContain(s.openPath);
    const shown = await dispatch(handlers, 'conversation:message', { path: s.openPath, conversation: 0, index: s.selected });
    expect(shown.ok && (shown.value as { text: string }).text).toMatch(new RegExp(`^Turn ${n}:`));
    expect(s.goToNote?.text).toMatch(new RegExp(`^Message #1,300 of the session is #${s.selected} of part \\d+ of ${parts.length}`));
    // In a later part, whose rows are numbered from its own first message, that number is offered second.
    const [session3, part3] = paletteEntries('#3', useApp.getState());
    expect(session3.label).toMatch(/^Go to message 3 of the session/);
    expect(part3.label).toMatch(/^Go to message 3 of this part \(part \d+ of \d+, as its rows are numbered\)$/);
    part3.run(useApp.getState());
    expect([useApp.getState().openPath, useApp.getState().selected]).toEqual([s.openPath, 3]);
    useApp.getState().select(s.selected!);
    // Past the session's last message: said, and the reader stays where they are.
    paletteEntries('#5000', useApp.getState())[0].run(useApp.getState());
    await settled(() => useApp.getState().goToNote?.missed === true);
    expect(useApp.getState().goToNote).toEqual({ text: `This session has 1,401 messages (#0 to #1,400, in ${parts.length} parts): there is no message #5,000.`, missed: true });
    expect(useApp.getState().openPath).toBe(s.openPath);
    expect(useApp.getState().selected).toBe(s.selected);
  });
});
