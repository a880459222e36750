// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Popover } from '../../app/renderer/features/header/Popover.js';
import { moveAmongButtons } from '../../app/renderer/features/arrow-keys.js';

afterEach(cleanup);

describe('arrow keys in menus and tab lists', () => {
  it('↓ and ↑ go from item to item of a popover’s menu, round at the ends; Home and End to the first and last', () => {
    render(
      <Popover label="Threads" content="Main thread" open>
        <input aria-label="filter" />
        <button>one</button>
        <button>two</button>
        <button disabled>off</button>
        <button>three</button>
      </Popover>,
    );
    const panel = screen.getByRole('dialog');
    screen.getByText('one').focus();
    const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key });
    press('ArrowDown');
    expect(document.activeElement?.textContent).toBe('two');
    press('ArrowDown');
    expect(document.activeElement?.textContent).toBe('three');
    press('ArrowDown');
    // the popover's own button comes first in the page, outside the panel: the panel's first item
    expect(panel.contains(document.activeElement)).toBe(true);
    expect(document.activeElement?.textContent).toBe('one');
    press('ArrowUp');
    expect(document.activeElement?.textContent).toBe('three');
    press('Home');
    expect(document.activeElement?.textContent).toBe('one');
    press('End');
    expect(document.activeElement?.textContent).toBe('three');
    // Typing in a field keeps its keys.
    screen.getByLabelText('filter').focus();
    press('ArrowDown');
    expect(document.activeElement).toBe(screen.getByLabelText('filter'));
  });

  it('→ and ← in a tab list reach the next tab, ↓ is not theirs', () => {
    let chosen = '';
    render(
      <div role="tablist" onKeyDown={(e) => moveAmongButtons(e, e.currentTarget, false)?.click()}>
        {['Day', 'Project', 'Model'].map((t) => (
          <button key={t} role="tab" onClick={() => (chosen = t)}>
            {t}
          </button>
        ))}
      </div>,
    );
    screen.getByText('Day').focus();
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect([document.activeElement?.textContent, chosen]).toEqual(['Project', 'Project']);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(chosen).toBe('Model');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(chosen).toBe('Model');
  });
});
