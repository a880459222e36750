import { useEffect, useState } from 'react';
import type { Skeleton, TurnFiguresData } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useApp } from '../../store/index.js';

export interface ServedTurns {
  turns: TurnFiguresData[];
  sessionUsd?: number;
}

/**
 * The request in flight, shared by the turn strip and the transcript as they open together: both show the
 * service's figures (an estimate made twice, by two rules, had one turn at ≈$0.032 in the strip and ≈$0.084 in
 * the transcript's margin).
 */
let pending: { key: string; answer: Promise<ServedTurns> } | undefined;

/** The service's turns of the conversation shown, once its counts are in (estimates are made from them). */
export function useTurns(skeleton: Skeleton | undefined): ServedTurns | undefined {
  const counts = useApp((s) => s.counts);
  const model = skeleton && counts && counts.path === skeleton.path && counts.conversation === skeleton.conversation ? counts.model : undefined;
  const [got, setGot] = useState<{ key: string } & ServedTurns>();
  const key = skeleton ? `${skeleton.path}\n${skeleton.conversation}\n${skeleton.version}\n${model}` : '';
  useEffect(() => {
    if (!skeleton || model === undefined) return;
    let live = true;
    if (pending?.key !== key) {
      const mine = {
        key,
        answer: request('conversation:turns', { path: skeleton.path, conversation: skeleton.conversation, model })
          .then(
            (r): ServedTurns => ({ turns: r.turns, ...(r.sessionUsd !== undefined ? { sessionUsd: r.sessionUsd } : {}) }),
            (): ServedTurns => ({ turns: [] }),
          )
          .finally(() => {
            if (pending === mine) pending = undefined;
          }),
      };
      pending = mine;
    }
    void pending.answer.then((r) => live && setGot({ key, ...r }));
    return () => {
      live = false;
    };
  }, [key, model, skeleton?.path, skeleton?.conversation]);
  return got?.key === key ? got : undefined;
}
