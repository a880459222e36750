import { describe, expect, it } from 'vitest';
import { chordMatches, COMMAND_INFO, parseAccelerator, shortcutLabel, type KeyChord } from '../../app/shared/commands.js';

/** The key event a user's keyboard sends for a chord (Ctrl on Linux and Windows, Cmd on a Mac). */
const press = (c: KeyChord, mac = false) => ({
  key: c.key.length === 1 && c.shift && /[a-z]/.test(c.key) ? c.key.toUpperCase() : c.key,
  ctrlKey: c.mod && !mac,
  metaKey: c.mod && mac,
  shiftKey: c.shift,
  altKey: c.alt,
});

const bound = COMMAND_INFO.flatMap((info) => [info.accelerator, ...(info.also ?? [])].filter((a): a is string => !!a).map((accelerator) => ({ id: info.id, accelerator, chord: parseAccelerator(accelerator) })));

describe('keys made from the accelerators', () => {
  it('each accelerator is pressed by its own key event, on either platform, and by no other command\'s', () => {
    expect(bound.length).toBeGreaterThan(10);
    for (const { id, accelerator, chord } of bound) {
      for (const mac of [false, true]) {
        const e = press(chord, mac);
        expect(chordMatches(chord, e), `${accelerator} (${id})`).toBe(true);
        const others = bound.filter((b) => b.id !== id && chordMatches(b.chord, e)).map((b) => b.id);
        expect(others, `${accelerator} also presses`).toEqual([]);
      }
    }
  });

  it('modifiers must match: Ctrl+Shift+S is Save As, not Save; Shift+N adds before, N after; a plain E is not Ctrl+E', () => {
    const save = parseAccelerator('CmdOrCtrl+S');
    expect(chordMatches(save, { key: 'S', ctrlKey: true, metaKey: false, shiftKey: true, altKey: false })).toBe(false);
    expect(chordMatches(parseAccelerator('CmdOrCtrl+Shift+S'), { key: 'S', ctrlKey: true, metaKey: false, shiftKey: true, altKey: false })).toBe(true);
    expect(chordMatches(parseAccelerator('N'), { key: 'N', ctrlKey: false, metaKey: false, shiftKey: true, altKey: false })).toBe(false);
    expect(chordMatches(parseAccelerator('Shift+N'), { key: 'N', ctrlKey: false, metaKey: false, shiftKey: true, altKey: false })).toBe(true);
    expect(chordMatches(parseAccelerator('E'), { key: 'e', ctrlKey: true, metaKey: false, shiftKey: false, altKey: false })).toBe(false);
    expect(chordMatches(parseAccelerator('Alt+Up'), { key: 'ArrowUp', ctrlKey: false, metaKey: false, shiftKey: false, altKey: true })).toBe(true);
  });

  it('a symbol is pressed however the layout types it: "/" with Shift (a German keyboard) is still search', () => {
    expect(chordMatches(parseAccelerator('/'), { key: '/', ctrlKey: false, metaKey: false, shiftKey: true, altKey: false })).toBe(true);
    expect(chordMatches(parseAccelerator('/'), { key: '/', ctrlKey: true, metaKey: false, shiftKey: false, altKey: false })).toBe(false);
  });

  it('labels follow the platform: Ctrl+Shift+S elsewhere, ⇧⌘S on a Mac; never ⌘ off a Mac', () => {
    expect(shortcutLabel('CmdOrCtrl+Shift+S')).toBe('Ctrl+Shift+S');
    expect(shortcutLabel('CmdOrCtrl+Shift+S', true)).toBe('⇧⌘S');
    expect(shortcutLabel('CmdOrCtrl+K', true)).toBe('⌘K');
    expect(shortcutLabel('Alt+Up')).toBe('Alt+↑');
    expect(shortcutLabel('/')).toBe('/');
    for (const { accelerator } of bound) expect(shortcutLabel(accelerator)).not.toMatch(/[⌘⇧⌥]/);
  });
});
