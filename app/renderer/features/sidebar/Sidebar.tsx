import { useMemo } from 'react';
import { useApp } from '../../store/index.js';
import { age, formatNumber } from '../roles.js';

export function Sidebar() {
  const { entries, fileFilter, setFileFilter, fileSort, setFileSort, openPath, openConversation, listError, root } = useApp();
  const visible = useMemo(() => {
    const f = fileFilter.toLowerCase();
    const list = entries.filter((e) => e.name.toLowerCase().includes(f) || e.path.toLowerCase().includes(f));
    const by = {
      name: (a: typeof list[0], b: typeof list[0]) => a.path.localeCompare(b.path),
      messages: (a: typeof list[0], b: typeof list[0]) => (b.messages ?? -1) - (a.messages ?? -1),
      tokens: (a: typeof list[0], b: typeof list[0]) => (b.tokens ?? -1) - (a.tokens ?? -1),
      modified: (a: typeof list[0], b: typeof list[0]) => b.modified - a.modified,
    }[fileSort];
    return [...list].sort(by);
  }, [entries, fileFilter, fileSort]);

  return (
    <nav className="sidebar" aria-label="Conversations">
      <div className="sidebar-head">
        <h2>Conversations</h2>
        <select aria-label="Sort conversations" value={fileSort} onChange={(e) => setFileSort(e.target.value as typeof fileSort)}>
          <option value="name">name</option>
          <option value="modified">modified</option>
          <option value="messages">messages</option>
          <option value="tokens">tokens</option>
        </select>
      </div>
      <input className="filter" type="search" placeholder="Filter files" aria-label="Filter conversations" value={fileFilter} onChange={(e) => setFileFilter(e.target.value)} />
      {listError && <p className="error-text">{listError}</p>}
      {entries.length === 0 && !listError && <p className="empty">No .json, .yaml or .yml files in {root ?? 'this folder'} yet. Files an agent writes here appear as it works.</p>}
      <ul data-testid="file-list">
        {visible.map((e) => (
          <li key={e.path}>
            <button
              className={`file ${e.path === openPath ? 'active' : ''} ${e.error ? 'broken' : ''}`}
              data-testid="file"
              data-path={e.path}
              aria-current={e.path === openPath ? 'true' : undefined}
              onClick={() => void openConversation(e.path)}
            >
              <span className="file-name">
                {e.error ? '⚠ ' : ''}
                {e.path}
                <span className="badge">{e.format}</span>
              </span>
              {e.error ? (
                <span className="file-error" data-testid="file-error">
                  {e.errorLine !== undefined ? `line ${e.errorLine}, col ${e.errorColumn}: ` : ''}
                  {e.error}
                </span>
              ) : (
                <span className="file-meta" data-testid="file-meta">
                  <span data-testid="file-messages">{formatNumber(e.messages ?? 0)}</span> msgs · <span data-testid="file-tokens">{formatNumber(e.tokens ?? 0)}</span> tok · {age(e.modified)}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
