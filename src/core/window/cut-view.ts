import { RENDER_SEPARATOR } from './skeleton.js';
import { FATE_CODE, type WindowPlan, type WindowSkeleton } from './types.js';

/** A cut message as the model gets it: the text the plan cuts and the part of it the model is sent. */
export interface CutView {
  /** What the cut is made in: the message's content, or its block of the rendered history (`[time] role: content`). */
  text: string;
  basis: 'content' | 'rendered';
  /** The model is sent text.slice(offset) ('end') or text.slice(0, offset) ('start'). */
  keep: 'start' | 'end';
  offset: number;
}

/**
 * Where a plan made with the text cuts message `index`, in the text the cut is really made in: the dynamic
 * window cuts the rendered history, so its cut can fall in a block's `[time] role:` header, before the
 * content. Undefined when the message is not cut or the skeleton has no text.
 */
export function cutView(skeleton: WindowSkeleton, plan: WindowPlan, index: number): CutView | undefined {
  const text = skeleton.text;
  if (!text || plan.fates[index] !== FATE_CODE.cut) return undefined;
  if (plan.unit === 'rendered' && plan.renderedStart !== undefined) {
    const from = plan.renderedFrom ?? 0;
    let start = 0;
    for (let j = from; j < index; j++) start += text.block(j).length + RENDER_SEPARATOR.length;
    const block = text.block(index);
    return { text: block, basis: 'rendered', keep: 'end', offset: Math.max(0, Math.min(block.length, plan.renderedStart - start)) };
  }
  const cut = plan.cuts[index];
  if (!cut) return undefined;
  return { text: text.content(index), basis: 'content', keep: cut.keep, offset: cut.offset };
}
