import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DirEntry } from '../../../shared/contract.js';
import { useApp } from '../../store/index.js';
import { age, formatBytes, formatNumber } from '../roles.js';
import { countingModel } from '../../../../src/core/models.js';
import { estimateNote } from '../../../../src/core/tokenizer/estimate.js';
import { buildTree, endingStart, flattenTree, FORMAT_BADGE, type FolderNode, type SidebarRow } from './tree.js';
import { SessionList } from '../sessions/SessionList.js';

// A row reads only what it shows: with thousands of files, a change elsewhere in the store (a page of rows, a
// count's progress) re-renders none of them, and a filter re-renders only the rows whose entries changed.
const FileRow = memo(function FileRow({ e, depth, distinct, expanded, expand }: { e: DirEntry; depth: number; distinct: number; expanded: boolean; expand(path: string): void }) {
  // A file read a part at a time is the open one while any of its parts is.
  const active = useApp((s) => s.openPath === e.path || (!!e.parts && !!s.openPath?.startsWith(`${e.path}#part-`)));
  const unsaved = useApp((s) => s.unsaved.has(e.path));
  const openConversation = useApp((s) => s.openConversation);
  const picked = useApp((s) => s.compareMarks.indexOf(e.path));
  const toggleCompareMark = useApp((s) => s.toggleCompareMark);
  // A session's figure is counted for the model picked, or its own: an estimate where that tokenizer is not public.
  const estimate = useApp((s) => (e.tokens === undefined ? undefined : estimateNote(countingModel(s.modelChoice, e.model), e.model)));
  // Ages move on: a row shown for a while says how long ago its file changed, not how long ago it was drawn.
  const now = useApp((s) => s.clock);
  const many = (e.conversations ?? 1) > 1 || (e.parts?.length ?? 0) > 0;
  const name = e.path.slice(e.path.lastIndexOf('/') + 1);
  // A session named by its id is told apart by what it is about: its title, or its first prompt.
  const shown = e.title && !e.error && idNamed(name) ? e.title : undefined;
  return (
    <>
      <button
        className={`file ${active ? 'active' : ''} ${e.notRead ? 'not-read' : e.error ? 'broken' : ''}`}
        style={{ paddingLeft: 8 + depth * 12 }}
        data-testid="file"
        data-path={e.path}
        data-pending={e.pending ? 'true' : undefined}
        data-outside={e.outside ? 'true' : undefined}
        title={e.error ? `${e.path}: ${e.errorLine !== undefined ? `line ${e.errorLine}, col ${e.errorColumn}: ` : ''}${e.error}` : e.title ? `${e.path}\n${e.title}` : e.path}
        aria-current={active ? 'true' : undefined}
        aria-expanded={many ? expanded : undefined}
        data-picked={picked >= 0 ? 'true' : undefined}
        onClick={(ev) => {
          // A link out of the opened folders is never read: there is nothing to open.
          if (e.outside) return;
          // Ctrl/Cmd/Shift+click picks the file to compare (two picked: the Compare command).
          if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return toggleCompareMark(e.path);
          if (many) expand(e.path);
          // Too big to read whole: its first part opens (its head shows at once, as a big file's does).
          void openConversation(e.parts?.[0]?.path ?? e.path, 0);
        }}
      >
        <span className="file-name">
          {shown ? (
            <span className="file-stem file-title" data-testid="file-title">
              {shown}
            </span>
          ) : (
            <NameParts name={e.folder ? `${name}/` : name} warn={!!e.error && !e.notRead} distinct={distinct} />
          )}
          {unsaved && (
            <span className="unsaved-mark" data-testid="file-unsaved" title="Edited, not saved yet" aria-label="unsaved edits">
              {' '}●
            </span>
          )}
          {e.format && <span className="badge" title={e.formatLabel}>{FORMAT_BADGE[e.format] ?? e.format}</span>}
          {e.notRead && (
            <span className="badge" data-testid="file-not-read" title={`${e.notRead}: a database of a tool not read here`}>
              not read
            </span>
          )}
          {picked >= 0 && <span className="badge picked" data-testid="file-picked" title="Picked to compare (Ctrl+click again to drop it)">{picked === 0 ? 'A' : 'B'}</span>}
        </span>
        {e.error ? (
          <span className="file-error" data-testid="file-error">
            {e.errorLine !== undefined ? `line ${e.errorLine}, col ${e.errorColumn}: ` : ''}
            {e.error}
          </span>
        ) : (
          <span className="file-meta" data-testid="file-meta">
            {(e.secrets ?? 0) > 0 ? (
              <span className="file-secrets" data-testid="file-secrets" title={`${e.secrets} secret${e.secrets === 1 ? '' : 's'} (keys, tokens, passwords)${e.personal ? ` and ${e.personal} personal detail${e.personal === 1 ? '' : 's'} (e-mail, phone, IP)` : ''} found: open the file and press the secrets filter`}>
                {formatNumber(e.secrets!)} secret{e.secrets === 1 ? '' : 's'}
              </span>
            ) : null}
            {(e.secrets ?? 0) > 0 ? ' · ' : null}
            {(e.personal ?? 0) > 0 ? (
              <span className="file-personal muted" data-testid="file-personal" title={`${e.personal} personal detail${e.personal === 1 ? '' : 's'} (e-mail, phone, IP) found`}>
                {formatNumber(e.personal!)} personal ·{' '}
              </span>
            ) : null}
            {e.parts ? <>{formatNumber(e.parts.length)} parts · </> : many && <>{formatNumber(e.conversations ?? 0)} conversations · </>}
            {e.messages !== undefined ? (
              <>
                <span data-testid="file-messages" title={unsaved ? 'As edited, not saved yet' : e.estimated ? 'Estimated from the start of the file; counted when it is read whole or opened' : undefined}>
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
                {estimate && (
                  <span data-testid="file-tokens-estimate" title={`An estimate: ${estimate}`}>
                    ≈
                  </span>
                )}
                <span data-testid="file-tokens" title={unsaved ? 'As edited, not saved yet' : estimate ? `An estimate: ${estimate}` : undefined}>{formatNumber(e.tokens)}</span> tok ·{' '}
              </>
            )}
            <span title={new Date(e.modified).toLocaleString()}>modified {age(e.modified, now)} ago</span>
          </span>
        )}
      </button>
    </>
  );
});

const ConversationRow = memo(function ConversationRow({ e, index, title, label, depth, part }: { e: DirEntry; index: number; title: string; label: string; depth: number; part?: string }) {
  const active = useApp((s) => (part ? s.openPath === part : s.openPath === e.path && s.openConversationIndex === index));
  const openConversation = useApp((s) => s.openConversation);
  const messages = e.conversationMessages?.[index];
  const tokens = e.conversationTokens?.[index];
  return (
    <button className={`conversation ${active ? 'active' : ''}`} style={{ paddingLeft: 20 + depth * 12 }} data-testid="conversation-item" data-index={index} aria-current={active ? 'true' : undefined} title={title} onClick={() => void (part ? openConversation(part, 0) : openConversation(e.path, index))}>
      <span className="conversation-title">{label}</span>
      {messages !== undefined && (
        <span className="conversation-meta muted" data-testid="conversation-meta">
          {formatNumber(messages)} msgs{tokens !== undefined ? ` · ${formatNumber(tokens)} tok` : ''}
        </span>
      )}
    </button>
  );
});

function FolderRow({ node, depth, closed, toggle }: { node: FolderNode; depth: number; closed: boolean; toggle(path: string): void }) {
  return (
    <button className="tree-folder" style={{ paddingLeft: 8 + depth * 12 }} aria-expanded={!closed} onClick={() => toggle(node.path)} data-testid="folder" data-path={node.path}>
      <span aria-hidden="true">{closed ? '▸' : '▾'}</span> {node.name}/{' '}
      <span className="muted">
        {formatNumber(node.count)} file{node.count === 1 ? '' : 's'}
      </span>
    </button>
  );
}

// As app.css draws them: fixed, so that scrolling places lines without measuring any.
const LINE_HEIGHT: Record<SidebarRow['kind'], number> = { file: 46, folder: 26, conversation: 24 };

const rowKey = (r: SidebarRow) => (r.kind === 'folder' ? `d:${r.node.path}` : r.kind === 'file' ? `f:${r.entry.path}` : `c:${r.entry.path}:${r.index}`);

/** A long name gives way before the part that tells it from its neighbours, and before at least its last characters (rollout-2026-…-<id>.jsonl). */
const TAIL = 12;
/** A file name that is an id (a UUID, a long hex run): a session's, which says nothing of what it holds. */
export function idNamed(name: string): boolean {
  // UUIDs, long hex runs, and OpenCode's `ses_<time><random>` ids.
  return /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-|(^|[-_.])[0-9a-f]{8,}([-_.]|$)|^ses_[0-9A-Za-z]{12,}/i.test(name);
}

function NameParts({ name, warn, distinct }: { name: string; warn: boolean; distinct: number }) {
  const mark = warn ? '⚠ ' : '';
  if (name.length <= TAIL * 2) return <span className="file-stem">{mark + name}</span>;
  // Three parts, giving way in this order: what the neighbours share at the start, then the end of the part
  // that tells this name apart (its start stays), never the ending (`.json` and `.jsonl` stay told apart).
  const endAt = Math.max(distinct, endingStart(name));
  const cut = Math.min(distinct, endAt);
  return (
    <>
      {cut > 0 || mark ? <span className="file-stem">{mark + name.slice(0, cut)}</span> : null}
      {endAt > cut && (
        <span className="file-tail" data-testid="file-tail">
          {name.slice(cut, endAt)}
        </span>
      )}
      <span className="file-end" data-testid="file-end">{name.slice(endAt)}</span>
    </>
  );
}

export function Sidebar() {
  const { entries: all, fileFilter, setFileFilter, fileSort, setFileSort, listError, root, listTruncated, listing, fileOnly, setFileOnly } = useApp(
    useShallow((s) => ({ entries: s.entries, fileFilter: s.fileFilter, setFileFilter: s.setFileFilter, fileSort: s.fileSort, setFileSort: s.setFileSort, listError: s.listError, root: s.root, listTruncated: s.listTruncated, listing: s.listing, fileOnly: s.fileOnly, setFileOnly: s.setFileOnly })),
  );
  // Narrowed to the files the session list leaves out, when its note was followed here.
  const entries = useMemo(() => {
    if (!fileOnly) return all;
    const only = new Set(fileOnly.paths);
    return all.filter((e) => only.has(e.path));
  }, [all, fileOnly]);
  const openPath = useApp((s) => s.openPath);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [expandedFiles, setExpandedFiles] = useState<Set<string>>(new Set());
  // The box shows each key at once; the list follows when React has time (thousands of rows).
  const filter = useDeferredValue(fileFilter);
  const tree = useMemo(() => {
    const f = filter.toLowerCase();
    return buildTree(f ? entries.filter((e) => e.path.toLowerCase().includes(f) || (e.title?.toLowerCase().includes(f) ?? false)) : entries, fileSort);
  }, [entries, filter, fileSort]);
  const rows = useMemo(() => flattenTree(tree, collapsed, (e) => e.path === openPath || expandedFiles.has(e.path) || (!!e.parts && !!openPath?.startsWith(`${e.path}#part-`)), fileSort), [tree, collapsed, expandedFiles, openPath, fileSort]);
  const toggle = useCallback(
    (path: string) =>
      setCollapsed((c) => {
        const next = new Set(c);
        if (next.has(path)) next.delete(path);
        else next.add(path);
        return next;
      }),
    [],
  );
  const expand = useCallback((path: string) => setExpandedFiles((x) => (x.has(path) ? x : new Set(x).add(path))), []);
  // Only the lines in view are in the page: 10,000 files filter and scroll as 40 would.
  const listRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listRef.current,
    estimateSize: (i) => LINE_HEIGHT[rows[i].kind],
    getItemKey: (i) => rowKey(rows[i]),
    overscan: 16,
    initialRect: { width: 260, height: 800 },
  });
  // A new filter shows its first matches: the list goes back to its top (where the user scrolled was another list).
  useEffect(() => {
    listRef.current?.scrollTo({ top: 0 });
  }, [filter, fileOnly]);

  const mode = useApp((s) => s.sidebarMode);
  const setMode = useApp((s) => s.setSidebarMode);
  const modes = (
    <div className="sidebar-modes" role="radiogroup" aria-label="List">
      {(['sessions', 'files'] as const).map((m) => (
        <button
          key={m}
          role="radio"
          aria-checked={mode === m}
          className={mode === m ? 'active' : ''}
          onClick={() => {
            // Chosen by hand, the Files list is every file again.
            setFileOnly(undefined);
            setMode(m);
          }}
          data-testid={`sidebar-mode-${m}`}
        >
          {m === 'sessions' ? 'Sessions' : 'Files'}
        </button>
      ))}
    </div>
  );
  if (mode === 'sessions') {
    return (
      <nav className="sidebar" aria-label="Conversations">
        <div className="sidebar-head">
          <h2>Conversations</h2>
          {modes}
        </div>
        <SessionList />
      </nav>
    );
  }
  // A list the user is scrolling or clicking in is theirs: it does not turn to the sessions under them.
  const hold = () => useApp.getState().holdSidebar();
  return (
    <nav className="sidebar" aria-label="Conversations" onWheel={hold} onPointerDown={hold} onKeyDown={hold}>
      <div className="sidebar-head">
        <h2>Conversations</h2>
        {modes}
      </div>
      {/* The sort beside the filter, not in the heading: at the sidebar's width the heading holds the switch alone. */}
      <div className="sidebar-tools">
        <input className="filter" type="search" placeholder="Filter files" aria-label="Filter conversations" value={fileFilter} onChange={(e) => setFileFilter(e.target.value)} />
        <select aria-label="Sort conversations" title={fileSort === 'tokens' ? 'By tokens: files are counted when opened, and those not counted yet come after the counted ones' : undefined} value={fileSort} onChange={(e) => setFileSort(e.target.value as typeof fileSort)}>
          <option value="name">name</option>
          <option value="modified">modified</option>
          <option value="messages">messages</option>
          <option value="tokens">tokens</option>
        </select>
      </div>
      {fileOnly && (
        <p className="muted small file-only" data-testid="file-only">
          The {formatNumber(fileOnly.paths.length + fileOnly.more)} {fileOnly.paths.length + fileOnly.more === 1 ? 'file' : 'files'} the session list leaves out
          {fileOnly.more > 0 ? ` (the first ${formatNumber(fileOnly.paths.length)} shown)` : ''}, each with why —{' '}
          <button className="link" onClick={() => setFileOnly(undefined)} data-testid="file-only-clear">
            show every file
          </button>
        </p>
      )}
      {listError && <p className="error-text">{listError}</p>}
      {all.length === 0 && !listError && listing && <p className="empty muted">Looking for conversation files…</p>}
      {all.length === 0 && !listError && !listing && <p className="empty">No conversation files in {root ?? 'this folder'} yet (swarms JSON/YAML and MEMORY.md, OpenAI, Anthropic, Claude Code, Codex, ShareGPT, LangChain…). Files an agent writes here appear as it works.</p>}
      <div className="sidebar-list" ref={listRef} data-testid="file-list" data-rows={rows.length}>
        <ul style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0 }}>
          {virtualizer.getVirtualItems().map((item) => {
            const r = rows[item.index];
            return (
              <li key={item.key} data-index={item.index} className={`sidebar-row line-${r.kind}`} style={{ transform: `translateY(${item.start}px)` }}>
                {r.kind === 'folder' ? (
                  <FolderRow node={r.node} depth={r.depth} closed={collapsed.has(r.node.path)} toggle={toggle} />
                ) : r.kind === 'file' ? (
                  <FileRow e={r.entry} depth={r.depth} distinct={r.distinct} expanded={r.entry.path === openPath || expandedFiles.has(r.entry.path) || (!!r.entry.parts && !!openPath?.startsWith(`${r.entry.path}#part-`))} expand={expand} />
                ) : (
                  <ConversationRow e={r.entry} index={r.index} title={r.title} label={r.label} depth={r.depth} part={r.part} />
                )}
              </li>
            );
          })}
        </ul>
      </div>
      {listTruncated && <p className="muted small" data-testid="list-truncated">The listing stopped at {formatNumber(entries.length)} files; open a smaller folder to see the rest.</p>}
    </nav>
  );
}
