import { useState } from 'react';
import { FLAGS, type Skeleton } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useAppPick } from '../../store/index.js';
import { formatNumber } from '../roles.js';
import { ForkNavigator } from './ForkNavigator.js';
import { ThreadMenu } from './ThreadMenu.js';
import { partStart } from './part-start.js';

/** The session's own controls on the header's second line: its threads, its forks, what of it is shown. */
export function SessionControls({ skeleton }: { skeleton: Skeleton }) {
  return (
    <>
      <ThreadMenu skeleton={skeleton} />
      <ForkNavigator skeleton={skeleton} />
      <CompactionToggle skeleton={skeleton} />
    </>
  );
}

/**
 * What the model is sent now (since the last compaction), or the whole session, compactions and all: one chip.
 * A branch that never reached a compaction is whole already: it says nothing.
 */
export function CompactionToggle({ skeleton }: { skeleton: Skeleton }) {
  const { applyChange } = useAppPick('applyChange');
  const [error, setError] = useState<string | undefined>();
  const compacted = skeleton.flags.some((f) => (f & FLAGS.compaction) !== 0);
  if (!((skeleton.earlier ?? 0) > 0 || (skeleton.whole && compacted))) return null;
  const setWhole = async (whole: boolean) => {
    try {
      const { delta } = await request('conversation:path', { path: skeleton.path, conversation: skeleton.conversation, whole });
      await applyChange(delta);
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <span data-testid="compaction-note">
      {skeleton.whole ? (
        <button className="chip-toggle on" aria-pressed="true" onClick={() => void setWhole(false)} data-testid="show-since-compaction" title={`The whole session, compactions and all. Click for what the model is sent now (since ${partStart(skeleton).last}).`}>
          whole session
        </button>
      ) : (
        <button className="chip-toggle" aria-pressed="false" onClick={() => void setWhole(true)} data-testid="show-whole" title={`Since ${partStart(skeleton).last}: what the model is sent now. Click to show the ${formatNumber(skeleton.earlier ?? 0)} messages before it too.`}>
          +{formatNumber(skeleton.earlier ?? 0)} before {partStart(skeleton).since}
        </button>
      )}
      {error && <span className="error-text">{error}</span>}
    </span>
  );
}
