import { useApp } from '../../store/index.js';
import { MODELS } from '../../store/tokens.js';

export function TopBar() {
  const { root, model, setModel, countProgress } = useApp();
  return (
    <header className="topbar">
      <span className="folder" title={root}>▸ {root ?? '…'}</span>
      <label className="model">
        model
        <select aria-label="Model or encoding for token counts" value={model} onChange={(e) => void setModel(e.target.value)}>
          {MODELS.map((m) => (
            <option key={m} value={m}>{m}</option>
          ))}
        </select>
      </label>
      {countProgress && countProgress.total > 0 && (
        <span className="progress" role="progressbar" aria-label="Counting tokens" aria-valuemin={0} aria-valuemax={countProgress.total} aria-valuenow={countProgress.done}>
          <span className="progress-fill" style={{ width: `${(100 * countProgress.done) / countProgress.total}%` }} />
          <span className="progress-text">counting {countProgress.done.toLocaleString('en-US')} / {countProgress.total.toLocaleString('en-US')}</span>
        </span>
      )}
    </header>
  );
}
