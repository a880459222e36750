import { useEffect, useMemo, useState } from 'react';
import { useApp } from '../../store/index.js';
import { LiveTokens } from './LiveTokens.js';
import { EditorForm } from './EditorForm.js';
import { caretAtEnd, jsonError, textareaRows, useJsonError } from './editor-text.js';

const isRecord = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? undefined : 'a record is a JSON object');

/**
 * Edits a record of any format: its readable text (where the format can set it), or the whole record as
 * JSON, validated as you type. Ctrl+Enter applies, Ctrl+S applies and saves, Esc cancels.
 */
export function RecordEditor({ index, record, text, editableText, onDone }: { index: number; record: Record<string, unknown>; text: string; editableText: boolean; onDone(): void }) {
  const applyEdit = useApp((s) => s.applyEdit);
  const setDraftDirty = useApp((s) => s.setDraftDirty);
  const original = useMemo(() => JSON.stringify(record, null, 2), [record]);
  const [mode, setMode] = useState<'text' | 'record'>(editableText ? 'text' : 'record');
  const [draftText, setDraftText] = useState(text);
  const [draftRecord, setDraftRecord] = useState(original);
  const recordError = useJsonError(draftRecord, isRecord, mode !== 'record');
  const dirty = mode === 'text' ? draftText !== text : draftRecord !== original;
  useEffect(() => setDraftDirty(dirty), [dirty, setDraftDirty]);
  useEffect(() => () => setDraftDirty(false), [setDraftDirty]);

  const apply = async (): Promise<boolean> => {
    if (!dirty) {
      setDraftDirty(false);
      onDone();
      return true;
    }
    if (mode === 'record' && jsonError(draftRecord, isRecord) !== undefined) return false;
    // Named with the state the editor's message index is of: if that message moved or changed meanwhile, refused.
    const version = useApp.getState().editingVersion ?? -1;
    const ok = await applyEdit(mode === 'text' ? { type: 'set-text', index, text: draftText } : { type: 'replace', index, record: JSON.parse(draftRecord) as Record<string, unknown> }, version);
    // The draft counts as unapplied until the edit is in: a refusal (another window changed the message) keeps it.
    if (ok) {
      setDraftDirty(false);
      onDone();
    }
    return ok;
  };

  return (
    <EditorForm apply={apply} canApply={!(mode === 'record' && recordError !== undefined)} note="Only this record changes in the file; keys this tool does not know are kept.">
      <div className="editor-row" role="tablist" aria-label="What to edit">
        <button type="button" role="tab" aria-selected={mode === 'text'} disabled={!editableText} onClick={() => setMode('text')} title={editableText ? '' : 'This message has no single text to edit: edit the record'}>
          Text
        </button>
        <button type="button" role="tab" aria-selected={mode === 'record'} onClick={() => setMode('record')}>
          Whole record (JSON)
        </button>
      </div>
      {mode === 'text' ? (
        <>
          <textarea value={draftText} onChange={(e) => setDraftText(e.target.value)} aria-label="Content" data-testid="edit-content" autoFocus ref={caretAtEnd} rows={textareaRows(draftText, 4, 24)} />
          <LiveTokens text={draftText} />
        </>
      ) : (
        <>
          <textarea className="json" value={draftRecord} onChange={(e) => setDraftRecord(e.target.value)} aria-label="Record (JSON)" aria-invalid={recordError !== undefined} data-testid="edit-record" autoFocus rows={textareaRows(draftRecord, 6, 30)} />
          {recordError && <p className="error-text" role="alert" data-testid="json-error">Invalid JSON: {recordError}</p>}
        </>
      )}
    </EditorForm>
  );
}
