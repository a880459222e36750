import { useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract.js';
import { FATE_CODE, type WindowPlan, type WindowStrategy } from '../../../../src/core/window/types.js';
import { request } from '../../api/client.js';
import { useApp } from '../../store/index.js';

type ExactCut = RequestOutput<'window:cut'>;
const SETTLE_MS = 150;

/**
 * The exact cut of the selected message, from the plan made with the full text in the document service: the
 * renderer plans from counts and can only estimate where a cut falls. Asked once the slider rests; until the
 * answer for these parameters comes, undefined (the estimate stands, marked so).
 */
export function useExactCut(plan: WindowPlan | undefined, strategy: WindowStrategy, params: Record<string, unknown>, selected: number | undefined): ExactCut | undefined {
  const openPath = useApp((s) => s.openPath);
  const model = useApp((s) => s.model);
  const generation = useApp((s) => s.generation);
  // The estimate can put the cut a message off: its neighbours are asked about too.
  const near = plan !== undefined && selected !== undefined && [selected - 1, selected, selected + 1].some((i) => plan.fates[i] === FATE_CODE.cut);
  const key = near ? JSON.stringify([openPath, generation, model, strategy.id, params, selected]) : '';
  const [answer, setAnswer] = useState<{ key: string; value: ExactCut } | undefined>();
  useEffect(() => {
    if (!key || !openPath || selected === undefined) return;
    let live = true;
    const clean = Object.fromEntries(Object.entries(params).filter(([, v]) => ['number', 'string', 'boolean'].includes(typeof v) || v === null)) as Record<string, number | string | boolean | null>;
    const timer = setTimeout(() => {
      request('window:cut', { path: openPath, conversation: useApp.getState().openConversationIndex, model, strategy: strategy.id, params: clean, index: selected })
        .then((value) => live && setAnswer({ key, value }))
        .catch(() => {});
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]);
  return answer && answer.key === key ? answer.value : undefined;
}
