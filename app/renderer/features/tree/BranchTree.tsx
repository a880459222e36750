import { useEffect, useState, type KeyboardEvent } from 'react';
import type { RequestOutput, Skeleton } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useAppPick } from '../../store/index.js';
import { closeOnEscape } from '../close-on-escape.js';
import { useModalFocus } from '../modal-focus.js';
import { formatNumber } from '../roles.js';

type Outline = RequestOutput<'conversation:outline'>;

/**
 * Every branch of the thread at once: each run of messages with one way on a line, indented under the message
 * it forks from, the path shown marked. A click shows that branch (its newest message).
 */
export function BranchTree({ skeleton, onClose }: { skeleton: Skeleton; onClose(): void }) {
  const { applyChange } = useAppPick('applyChange');
  const [outline, setOutline] = useState<Outline | undefined>();
  const [error, setError] = useState<string | undefined>();
  const dialog = useModalFocus<HTMLDivElement>();
  useEffect(() => {
    let live = true;
    request('conversation:outline', { path: skeleton.path, conversation: skeleton.conversation })
      .then((o) => live && setOutline(o))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [skeleton.path, skeleton.conversation, skeleton.version]);
  const show = async (first: number) => {
    try {
      const { delta } = await request('conversation:path', { path: skeleton.path, conversation: skeleton.conversation, leaf: first });
      await applyChange(delta);
      onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const forks = outline?.forks ?? 0;
  return (
    <div ref={dialog} className="dialog" role="dialog" aria-modal="true" aria-label="Every branch of this thread" onKeyDown={closeOnEscape(onClose)}>
      <div className="dialog-body branch-tree" data-testid="branch-tree">
        <div className="panel-head">
          <h2>
            Every branch · {outline ? `${formatNumber(outline.segments.length)} runs of messages; the conversation forks in ${forks === 1 ? 'one place' : `${formatNumber(forks)} places`}` : 'reading…'}
          </h2>
          <span className="spacer" />
          <button autoFocus onClick={onClose} aria-label="Close">
            ×
          </button>
        </div>
        <p className="muted">Each line is a run of messages with one way on; a line indented under another is a way the conversation went from its last message (a rewind, an edited prompt, another answer). Bold: the path shown.</p>
        {error && <p className="error-text">{error}</p>}
        {outline && (
          <ul className="outline" role="tree" aria-label="Branches" onKeyDown={moveInTree}>
            {outline.segments.map((s) => (
              <li key={s.first} role="treeitem" aria-level={s.depth + 1} aria-selected={s.shown} style={{ paddingLeft: `${s.depth * 18}px` }} data-testid="branch-segment" data-shown={s.shown}>
                <button className={`link ${s.shown ? 'shown' : ''}`} onClick={() => void show(s.first)} title={`Show this branch, to its newest message: ${s.leafText}`}>
                  {s.compacted ? (s.firstText.startsWith('●') ? '' : '● after a compaction · ') : s.depth > 0 ? '↳ ' : ''}
                  {s.label ? `${s.label}${s.label === 'rank 0' ? " (the labellers' best)" : ''} · ` : ''}
                  {formatNumber(s.length)} message{s.length === 1 ? '' : 's'}: {s.firstText || s.lastText || '(no text)'}
                  {s.firstText && s.lastText ? ` … ${s.lastText}` : ''}
                </button>
              </li>
            ))}
          </ul>
        )}
        {outline?.truncated && <p className="muted">The first {formatNumber(outline.segments.length)} runs are listed; the tree has more.</p>}
      </div>
    </div>
  );
}

/** ↑ and ↓ go from branch to branch in the outline, Home and End to the first and last. */
function moveInTree(e: KeyboardEvent<HTMLUListElement>) {
  const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button')];
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const to = e.key === 'ArrowDown' ? at + 1 : e.key === 'ArrowUp' ? at - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? buttons.length - 1 : undefined;
  if (to === undefined || buttons.length === 0) return;
  e.preventDefault();
  buttons[Math.max(0, Math.min(buttons.length - 1, to))].focus();
}
