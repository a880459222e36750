import { useEffect, useMemo, useState } from 'react';
import { useApp } from '../../store/index.js';
import { LiveTokens } from './LiveTokens.js';
import { EditorForm } from './EditorForm.js';
import { caretAtEnd, jsonError, textareaRows, useJsonError } from './editor-text.js';
import { withMod } from '../platform.js';

const isObject = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? undefined : 'metadata must be a JSON object');

/**
 * Edits one message: role, category and content. Structured content is edited as JSON, validated as you
 * type; invalid JSON is shown inline and cannot be applied.
 */
export function MessageEditor({ index, message, onDone }: { index: number; message: Record<string, unknown>; onDone(): void }) {
  const applyEdit = useApp((s) => s.applyEdit);
  const setDraftDirty = useApp((s) => s.setDraftDirty);
  const structured = typeof message.content !== 'string';
  const [role, setRole] = useState(String(message.role ?? ''));
  const [category, setCategory] = useState(typeof message.category === 'string' ? message.category : '');
  const [metadata, setMetadata] = useState(message.metadata === undefined ? '' : JSON.stringify(message.metadata, null, 2));
  const metadataError = useJsonError(metadata, isObject, metadata.trim() === '');
  const [content, setContent] = useState(structured ? JSON.stringify(message.content, null, 2) : String(message.content ?? ''));
  const contentError = useJsonError(content, undefined, !structured);
  const invalid = contentError !== undefined || metadataError !== undefined || role.trim() === '';
  const original = useMemo(
    () => ({ role: String(message.role ?? ''), category: typeof message.category === 'string' ? message.category : '', metadata: message.metadata === undefined ? '' : JSON.stringify(message.metadata, null, 2), content: structured ? JSON.stringify(message.content, null, 2) : String(message.content ?? '') }),
    [message, structured],
  );
  const dirty = role !== original.role || category !== original.category || metadata !== original.metadata || content !== original.content;
  // Leaving the message or the file with changes not applied asks first (the store guards select/open).
  useEffect(() => setDraftDirty(dirty), [dirty, setDraftDirty]);
  useEffect(() => () => setDraftDirty(false), [setDraftDirty]);

  /** Applies the changes; true when there was nothing to apply or the edit went in. */
  const apply = async (): Promise<boolean> => {
    // The checks shown are made on a deferred copy of the draft: the draft itself is checked here.
    if (role.trim() === '' || (structured && jsonError(content) !== undefined) || (metadata.trim() !== '' && jsonError(metadata, isObject) !== undefined)) return false;
    const patch: Record<string, unknown> = {};
    if (role !== message.role) patch.role = role;
    const nextContent = structured ? JSON.parse(content) : content;
    if (JSON.stringify(nextContent) !== JSON.stringify(message.content)) patch.content = nextContent;
    const remove: string[] = [];
    if (category !== (message.category ?? '')) {
      if (category === '') remove.push('category');
      else patch.category = category;
    }
    const nextMetadata = metadata.trim() === '' ? undefined : JSON.parse(metadata);
    if (JSON.stringify(nextMetadata) !== JSON.stringify(message.metadata)) {
      if (nextMetadata === undefined) remove.push('metadata');
      else patch.metadata = nextMetadata;
    }
    if (Object.keys(patch).length === 0 && remove.length === 0) {
      setDraftDirty(false);
      onDone();
      return true;
    }
    // The draft counts as unapplied until the edit is in: a refusal (another window changed the message) keeps it.
    // Named with the state the editor's message index is of: if that message moved or changed meanwhile, refused.
    const ok = await applyEdit({ type: 'update', index, patch, remove }, useApp.getState().editingVersion ?? -1);
    if (ok) {
      setDraftDirty(false);
      onDone();
    }
    return ok;
  };

  return (
    <EditorForm apply={apply} canApply={!invalid} note={`${withMod('S')} applies and saves; applied edits stay in memory until saved, and ${withMod('Z')} undoes them.`}>
      <div className="editor-row">
        <label>
          role <input value={role} onChange={(e) => setRole(e.target.value)} aria-label="Role" data-testid="edit-role" />
        </label>
        <label>
          category <input value={category} onChange={(e) => setCategory(e.target.value)} aria-label="Category" placeholder="(none)" />
        </label>
      </div>
      <textarea
        className={structured ? 'json' : ''}
        value={content}
        onChange={(e) => setContent(e.target.value)}
        aria-label={structured ? 'Content (JSON)' : 'Content'}
        aria-invalid={contentError !== undefined}
        data-testid="edit-content"
        autoFocus
        ref={caretAtEnd}
        rows={textareaRows(content, 4, 24)}
      />
      {contentError && <p className="error-text" role="alert" data-testid="json-error">Invalid JSON: {contentError}</p>}
      {!structured && <LiveTokens text={content} />}
      <label className="small muted">
        metadata (JSON object; empty for none)
        <textarea className="json" value={metadata} onChange={(e) => setMetadata(e.target.value)} aria-label="Metadata (JSON)" aria-invalid={metadataError !== undefined} rows={textareaRows(metadata, 2, 12)} />
      </label>
      {metadataError && <p className="error-text" role="alert">Invalid metadata: {metadataError}</p>}
    </EditorForm>
  );
}
