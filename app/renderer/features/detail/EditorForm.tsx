import type { ReactNode } from 'react';
import { useApp } from '../../store/index.js';
import { withMod } from '../platform.js';

/**
 * The frame both editors share: Enter-to-apply as a form, Ctrl+Enter applies, Ctrl+S applies then saves
 * (save means save what I typed), Esc and Cancel leave without applying.
 */
export function EditorForm({ apply, canApply, note, children }: { apply(): Promise<boolean>; canApply: boolean; note: string; children: ReactNode }) {
  const save = useApp((s) => s.save);
  const setDraftDirty = useApp((s) => s.setDraftDirty);
  const cancelEditing = useApp((s) => s.cancelEditing);
  const cancel = () => {
    setDraftDirty(false);
    cancelEditing();
  };
  return (
    <form
      className="editor"
      data-testid="editor"
      onSubmit={(e) => {
        e.preventDefault();
        void apply();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          // The editor is the layer Esc closes: the window panel behind it stays. A key is easily pressed by
          // mistake, so typed text is not thrown away without asking (the Cancel button does not ask).
          e.stopPropagation();
          e.preventDefault();
          if (useApp.getState().leaveDraft()) cancel();
        }
        if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') void apply();
        if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 's') {
          e.preventDefault();
          e.stopPropagation();
          void apply().then(async (ok) => {
            if (ok) await save();
          });
        }
      }}
    >
      {children}
      <div className="editor-row">
        <button type="submit" disabled={!canApply} data-testid="edit-apply">
          Apply ({withMod('Enter')})
        </button>
        <button type="button" onClick={cancel}>
          Cancel (Esc)
        </button>
        <span className="muted small">{note}</span>
      </div>
    </form>
  );
}
