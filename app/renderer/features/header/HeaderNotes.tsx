import { useMemo, type ReactNode } from 'react';
import { FLAGS, type Skeleton } from '../../../shared/contract.js';
import { reattachedText } from '../../../../src/core/tree/thread-paths.js';
import { formatNumber } from '../roles.js';
import { useEstimateNote } from './CountedTotal.js';
import { Popover } from './Popover.js';

interface Note {
  id: string;
  text: ReactNode;
}

/** What is worth knowing of the file but is no figure: each a sentence, gathered under one small button. */
export function useHeaderNotes(skeleton: Skeleton, parted: boolean): Note[] {
  const unread = useMemo(() => skeleton.flags.reduce((n, f) => n + (f & FLAGS.unread ? 1 : 0), 0), [skeleton.flags]);
  const estimate = useEstimateNote(skeleton);
  const notes: Note[] = [];
  // A part of a big file says so in its banner, with the way to the parts around it.
  if (skeleton.readOnly && !parted)
    notes.push({
      id: 'read-only-banner',
      text: (
        <>
          <strong>Read-only:</strong> {skeleton.readOnly.reason}.
        </>
      ),
    });
  if (estimate) notes.push({ id: 'estimate-note', text: `The token counts are estimates: ${estimate}.` });
  if (skeleton.cutLine !== undefined)
    notes.push({ id: 'cut-line-note', text: `Line ${formatNumber(skeleton.cutLine)} is not whole JSON (the agent may still be writing it, or the write was cut off): it is not shown, kept as it is on save, and looked into for secrets.` });
  if (unread > 0)
    notes.push({ id: 'unread-note', text: `${formatNumber(unread)} of ${formatNumber(skeleton.count)} message${skeleton.count === 1 ? ' has' : 's have'} parts this reader does not know: each is shown as an unread part with its raw JSON, kept as it is on save.` });
  if ((skeleton.reattached ?? 0) > 0) notes.push({ id: 'reattached-note', text: `${reattachedText(skeleton.reattached!)} (a copied or partial transcript).` });
  if (skeleton.other > 0) notes.push({ id: 'other-records-note', text: `${formatNumber(skeleton.other)} record${skeleton.other === 1 ? '' : 's'} of the file ${skeleton.other === 1 ? 'is' : 'are'} not a message (kept as ${skeleton.other === 1 ? 'it is' : 'they are'}, not shown).` });
  return notes;
}

/**
 * One small button for every note of the file (read-only, estimates, a line cut off, unread parts…), the
 * notes in a popover: the header stays two lines whatever the file has to say. A read-only file says so on it.
 */
export function HeaderNotes({ skeleton, parted }: { skeleton: Skeleton; parted: boolean }) {
  const notes = useHeaderNotes(skeleton, parted);
  if (notes.length === 0) return null;
  const readOnly = notes.some((n) => n.id === 'read-only-banner');
  return (
    <Popover
      label="Notes about this file"
      testid="header-notes"
      align="end"
      className="header-notes"
      title={`${notes.length} note${notes.length === 1 ? '' : 's'} about this file`}
      buttonProps={{ 'aria-label': `${readOnly ? 'Read-only; ' : ''}${notes.length} note${notes.length === 1 ? '' : 's'} about this file`, 'data-count': String(notes.length) }}
      content={
        <>
          {readOnly && (
            <span className="read-only-tag" data-testid="read-only-tag">
              read-only
            </span>
          )}
          <span aria-hidden="true">
            {notes.length} note{notes.length === 1 ? '' : 's'}
          </span>
        </>
      }
    >
      <ul className="notes-list">
        {notes.map((n) => (
          <li key={n.id} data-testid={n.id}>
            {n.text}
          </li>
        ))}
      </ul>
    </Popover>
  );
}
