import { memo, useDeferredValue, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DirEntry } from '../../../shared/contract.js';
import { useApp } from '../../store/index.js';
import { age, formatBytes, formatNumber } from '../roles.js';
import { buildTree, FORMAT_BADGE, type FolderNode } from './tree.js';

// A row reads only what it shows: with thousands of files, a change elsewhere in the store (a page of rows, a
// count's progress) re-renders none of them, and a filter re-renders only the rows whose entries changed.
const FileRow = memo(function FileRow({ e, depth }: { e: DirEntry; depth: number }) {
  const active = useApp((s) => s.openPath === e.path);
  const unsaved = useApp((s) => s.unsaved.has(e.path));
  const openConversationIndex = useApp((s) => (s.openPath === e.path ? s.openConversationIndex : -1));
  const openConversation = useApp((s) => s.openConversation);
  const [open, setOpen] = useState(false);
  const many = (e.conversations ?? 1) > 1;
  const name = e.path.slice(e.path.lastIndexOf('/') + 1);
  return (
    <li>
      <button
        className={`file ${active ? 'active' : ''} ${e.error ? 'broken' : ''}`}
        style={{ paddingLeft: 8 + depth * 12 }}
        data-testid="file"
        data-path={e.path}
        data-pending={e.pending ? 'true' : undefined}
        title={e.path}
        aria-current={active ? 'true' : undefined}
        aria-expanded={many ? open || active : undefined}
        onClick={() => {
          if (many) setOpen(true);
          void openConversation(e.path, 0);
        }}
      >
        <span className="file-name">
          {e.error ? '⚠ ' : ''}
          {name}
          {unsaved && (
            <span className="unsaved-mark" data-testid="file-unsaved" title="Edited, not saved yet" aria-label="unsaved edits">
              {' '}●
            </span>
          )}
          {e.format && <span className="badge" title={e.formatLabel}>{FORMAT_BADGE[e.format] ?? e.format}</span>}
        </span>
        {e.error ? (
          <span className="file-error" data-testid="file-error">
            {e.errorLine !== undefined ? `line ${e.errorLine}, col ${e.errorColumn}: ` : ''}
            {e.error}
          </span>
        ) : (
          <span className="file-meta" data-testid="file-meta">
            {many && <>{formatNumber(e.conversations ?? 0)} conversations · </>}
            {e.messages !== undefined ? (
              <>
                <span data-testid="file-messages" title={e.estimated ? 'Estimated from the start of the file; counted when it is read whole or opened' : undefined}>
                  {e.estimated ? '≈' : ''}
                  {formatNumber(e.messages)}
                </span>{' '}
                msgs ·{' '}
              </>
            ) : e.pending ? (
              <span className="loading" data-testid="file-pending" title="Reading this file's format and counts">
                … ·{' '}
              </span>
            ) : (
              <span title="Counted when opened">{formatBytes(e.bytes)} · </span>
            )}
            {e.tokens !== undefined && (
              <>
                <span data-testid="file-tokens">{formatNumber(e.tokens)}</span> tok ·{' '}
              </>
            )}
            <span title={new Date(e.modified).toLocaleString()}>modified {age(e.modified)} ago</span>
          </span>
        )}
      </button>
      {many && (open || active) && (
        <ul className="conversations" aria-label={`Conversations in ${name}`}>
          {(e.titles ?? []).map((t, i) => (
            <li key={i}>
              <button
                className={`conversation ${active && openConversationIndex === i ? 'active' : ''}`}
                style={{ paddingLeft: 20 + depth * 12 }}
                data-testid="conversation-item"
                data-index={i}
                aria-current={active && openConversationIndex === i ? 'true' : undefined}
                onClick={() => void openConversation(e.path, i)}
              >
                {t}
              </button>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
});

function Folder({ node, depth, collapsed, toggle }: { node: FolderNode; depth: number; collapsed: Set<string>; toggle(path: string): void }) {
  const closed = collapsed.has(node.path);
  return (
    <li>
      <button className="tree-folder" style={{ paddingLeft: 8 + depth * 12 }} aria-expanded={!closed} onClick={() => toggle(node.path)} data-testid="folder" data-path={node.path}>
        <span aria-hidden="true">{closed ? '▸' : '▾'}</span> {node.name}/ <span className="muted">{formatNumber(node.count)}</span>
      </button>
      {!closed && <Tree node={node} depth={depth + 1} collapsed={collapsed} toggle={toggle} />}
    </li>
  );
}

function Tree({ node, depth, collapsed, toggle }: { node: FolderNode; depth: number; collapsed: Set<string>; toggle(path: string): void }) {
  return (
    <ul data-testid={depth === 0 ? 'file-list' : undefined}>
      {node.folders.map((f) => (
        <Folder key={f.path} node={f} depth={depth} collapsed={collapsed} toggle={toggle} />
      ))}
      {node.files.map((e) => (
        <FileRow key={e.path} e={e} depth={depth} />
      ))}
    </ul>
  );
}

export function Sidebar() {
  const { entries, fileFilter, setFileFilter, fileSort, setFileSort, listError, root, listTruncated, listing } = useApp(
    useShallow((s) => ({ entries: s.entries, fileFilter: s.fileFilter, setFileFilter: s.setFileFilter, fileSort: s.fileSort, setFileSort: s.setFileSort, listError: s.listError, root: s.root, listTruncated: s.listTruncated, listing: s.listing })),
  );
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  // The box shows each key at once; the list follows when React has time (thousands of rows).
  const filter = useDeferredValue(fileFilter);
  const tree = useMemo(() => {
    const f = filter.toLowerCase();
    return buildTree(f ? entries.filter((e) => e.path.toLowerCase().includes(f)) : entries, fileSort);
  }, [entries, filter, fileSort]);
  const toggle = (path: string) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

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
      {entries.length === 0 && !listError && listing && <p className="empty muted">Looking for conversation files…</p>}
      {entries.length === 0 && !listError && !listing && <p className="empty">No conversation files in {root ?? 'this folder'} yet (swarms JSON/YAML and MEMORY.md, OpenAI, Anthropic, Claude Code, Codex, ShareGPT, LangChain…). Files an agent writes here appear as it works.</p>}
      <Tree node={tree} depth={0} collapsed={collapsed} toggle={toggle} />
      {listTruncated && <p className="muted small" data-testid="list-truncated">The listing stopped at {formatNumber(entries.length)} files; open a smaller folder to see the rest.</p>}
    </nav>
  );
}
