import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../../store/index.js';
import { paletteEntries } from './palette-entries.js';

/** Ctrl/Cmd+K: every command by name, with its shortcut. */
export function Palette() {
  const setPalette = useApp((s) => s.setPalette);
  const [query, setQuery] = useState(() => useApp.getState().paletteSeed ?? '');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const entries = useApp((s) => s.entries);
  const skeleton = useApp((s) => s.skeleton);
  const openPath = useApp((s) => s.openPath);
  const folderChoices = useApp((s) => s.folderChoices);
  const provisional = useApp((s) => s.provisional);
  const opening = useApp((s) => s.opening);
  const sessionsAnswer = useApp((s) => s.sessionsAnswer);
  const openConversationIndex = useApp((s) => s.openConversationIndex);
  const list = useMemo(() => paletteEntries(query, { entries, skeleton, openPath, folderChoices, provisional, opening, sessionsAnswer, openConversationIndex }), [query, entries, skeleton, openPath, folderChoices, provisional, opening, sessionsAnswer, openConversationIndex]);
  // Only whether each entry can run now, not the whole store: the palette redraws when that changes.
  const enabled = useApp(useShallow((s) => list.map((c) => c.enabled(s))));
  useEffect(() => input.current?.focus(), []);
  const run = (i: number) => {
    const c = list[i];
    if (!c || !c.enabled(useApp.getState())) return;
    setPalette(false);
    c.run(useApp.getState());
  };
  const keys = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown') setActive((a) => Math.min(list.length - 1, a + 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
    else if (e.key === 'Enter') run(active);
    else if (e.key === 'Escape') {
      e.stopPropagation();
      setPalette(false);
    } else return;
    e.preventDefault();
  };
  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-label="Command palette" onClick={() => setPalette(false)}>
      <div className="dialog-body palette" onClick={(e) => e.stopPropagation()}>
        <input
          ref={input}
          className="search"
          placeholder="A command, a file, or a message number"
          aria-label="Command"
          value={query}
          data-testid="palette-input"
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          role="combobox"
          aria-expanded={list.length > 0}
          aria-controls="palette-list"
          aria-activedescendant={list.length > 0 ? `palette-option-${active}` : undefined}
          onKeyDown={keys}
        />
        {/* Focusable too (a scrolled list is reachable by keyboard), with the same keys as the input. */}
        <ul role="listbox" id="palette-list" aria-label="Commands" tabIndex={0} onKeyDown={keys}>
          {list.map((c, i) => (
            <li key={c.id} id={`palette-option-${i}`} data-testid="palette-entry" role="option" aria-selected={i === active} aria-disabled={!enabled[i]} className={`${i === active ? 'active' : ''} ${enabled[i] ? '' : 'disabled'}`} onClick={() => run(i)}>
              <span>{c.label}</span>
              {c.shortcut && <kbd>{c.shortcut}</kbd>}
            </li>
          ))}
        </ul>
        {list.length === 0 && (
          <p className="muted" role="status" data-testid="palette-empty">
            No command, file or folder matches “{query.trim()}”. A number goes to that message.
          </p>
        )}
      </div>
    </div>
  );
}
