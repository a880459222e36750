import { useAppPick } from '../../store/index.js';
import { MODELS } from '../../store/tokens.js';
import { SESSION_MODEL } from '../../../../src/core/defaults.js';
import { resolveEncoding } from '../../../../src/core/tokenizer/encoding.js';
import { standsIn } from '../../../../src/core/tokenizer/estimate.js';
import { copyName, shortcutOf } from '../commands/registry.js';
import { formatBytes } from '../roles.js';

export function TopBar() {
  const { root, model, modelChoice, setModel, countProgress, edit, save, saving, undo, redo, setPalette, skeleton, chooseFolder, setSaveAsName, saveProgress, cancelSave, setShare } = useAppPick('root', 'model', 'modelChoice', 'setModel', 'countProgress', 'edit', 'save', 'saving', 'undo', 'redo', 'setPalette', 'skeleton', 'chooseFolder', 'setSaveAsName', 'saveProgress', 'cancelSave', 'setShare');
  return (
    <header className="topbar">
      {/* The count's progress lies over the end of the folder's slot: nothing in the bar moves when it comes and goes. */}
      <span className="folder-slot">
        <span className="folder" title={root}>{root ?? '…'}</span>
        {countProgress && countProgress.total > 0 && (
          <span className="progress" data-testid="count-progress" role="progressbar" aria-label="Counting tokens" aria-valuemin={0} aria-valuemax={countProgress.total} aria-valuenow={countProgress.done}>
            <span className="progress-fill" style={{ width: `${(100 * countProgress.done) / countProgress.total}%` }} />
            <span className="progress-text">counting {countProgress.done.toLocaleString('en-US')} / {countProgress.total.toLocaleString('en-US')}</span>
          </span>
        )}
      </span>
      <button className="open-folder-button" onClick={() => void chooseFolder()} title={`Open another folder (${shortcutOf('open-folder')})`} data-testid="open-folder-button">
        Open…
      </button>
      <label className="model">
        model
        <select aria-label="Model or encoding for token counts" value={modelChoice} onChange={(e) => void setModel(e.target.value)}>
          {MODELS.map((m) => (
            <option key={m} value={m}>{m === SESSION_MODEL ? `session's (${skeleton ? model : 'each its own'})` : m}</option>
          ))}
        </select>
      </label>
      <EncodingNote model={model} />
      {skeleton && (
        <span className="edit-controls">
          <button onClick={() => void undo()} disabled={!edit?.canUndo} title={edit?.canUndo ? `Undo ${edit.canUndo} (${shortcutOf('undo')})` : 'Nothing to undo'} aria-label="Undo">↶</button>
          <button onClick={() => void redo()} disabled={!edit?.canRedo} title={edit?.canRedo ? `Redo ${edit.canRedo} (${shortcutOf('redo')})` : 'Nothing to redo'} aria-label="Redo">↷</button>
          {skeleton.readOnly ? (
            // Not saved in place: edits are kept with Save As (a file of the format's own extension).
            skeleton.readOnly.edits && (
              <button onClick={() => setSaveAsName(copyName(skeleton.path, skeleton.readOnly?.saveAs))} disabled={!edit?.dirty || saving} data-testid="save-as-button" title={`Save a copy (${shortcutOf('save-as')}): ${skeleton.readOnly.reason}`}>
                Save as…
              </button>
            )
          ) : (
            <button onClick={() => void save()} disabled={!edit?.dirty || saving} data-testid="save" title={edit?.dirty ? `Save (${shortcutOf('save')})` : 'Nothing to save'}>{saving ? 'Saving…' : 'Save'}</button>
          )}
          {saving && (
            <span className="save-progress" role="status" data-testid="save-progress">
              {saveProgress?.writers
                ? `waiting for ${saveProgress.writers} to close the file (saving now would cut it off from it)`
                : saveProgress
                  ? `${saveProgress.step} (${saveProgress.at} of ${saveProgress.of})${saveProgress.total ? `: ${formatBytes(saveProgress.done ?? 0)} of ${formatBytes(saveProgress.total)}` : ''}`
                  : 'starting'}{' '}
              {saveProgress?.writers && (
                <button onClick={() => { cancelSave(); setSaveAsName(copyName(skeleton.path)); }} data-testid="waiting-save-as" title="Stop waiting and write your version to a new file now">
                  Save as…
                </button>
              )}
              <button onClick={() => cancelSave()} data-testid="cancel-save" title="Stop the save: the file stays as it was, your edits stay here">Cancel</button>
            </span>
          )}
          {edit?.dirty && <span className="dirty" data-testid="dirty">● unsaved</span>}
          {edit?.dirty && edit.storedCounts && (
            <span className="muted small" data-testid="stored-counts-note" title={`${edit.storedCounts.matches} of ${edit.storedCounts.sampled} stored counts sampled are ${edit.storedCounts.encoding} counts; the picked model counts in ${edit.storedCounts.picked}`}>
              token_count written in {edit.storedCounts.encoding}, the file&apos;s own
            </span>
          )}
          {saving && <span className="muted" role="status" data-testid="saving">saving…</span>}
        </span>
      )}
      <button className="palette-button" onClick={() => setShare(skeleton ? 'conversation' : 'folder')} title={`Share a transcript: one HTML page or Markdown, secrets and personal data redacted (${shortcutOf('share')})`} data-testid="share-button">
        Share…
      </button>
      <button className="palette-button" onClick={() => setPalette(true)} title={`Commands (${shortcutOf('palette')})`}>{shortcutOf('palette')} commands</button>
    </header>
  );
}

/** The encoding counts are made in, and for a model whose tokenizer is not public, that it only stands in: "≈ o200k_base". */
function EncodingNote({ model }: { model: string }) {
  const choice = resolveEncoding(model);
  const note = standsIn(choice);
  return (
    <span className="muted small model-encoding" data-testid="model-encoding" data-approximate={choice.approximate ? 'true' : undefined} title={note ? `${note}: its own tokenizer is not public, so counts here are estimates` : `${model}'s own tokenizer`}>
      {note ? `≈ ${choice.encoding}` : choice.encoding}
    </span>
  );
}
