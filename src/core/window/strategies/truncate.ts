import { numberParam, orphanWarnings, PlanBuilder } from '../plan-builder.js';
import { truncationCut } from '../trim-text.js';
import type { PlanWarning, WindowStrategy } from '../types.js';

export const DEFAULT_CONTEXT_LENGTH = 8192;

/**
 * truncateMemoryWithTokenizer: keep messages from the start while they fit; the crossing message is cut at a
 * sentence boundary (structured content is dropped whole, since cutting JSON corrupts it); later ones drop.
 */
export const truncate: WindowStrategy<{ contextLength: number }> = {
  id: 'truncate',
  label: 'Truncate (keep the start)',
  description: 'Keep messages from the start until the budget runs out; cut the crossing message at a sentence end.',
  params: [{ key: 'contextLength', label: 'Token budget', kind: 'tokens', default: DEFAULT_CONTEXT_LENGTH, min: 0 }],
  plan(skeleton, params) {
    const contextLength = numberParam(params, 'contextLength', DEFAULT_CONTEXT_LENGTH);
    const m = skeleton.messages;
    const b = new PlanBuilder(m, 'content');
    const warnings: PlanWarning[] = [];
    let used = 0;
    let i = 0;
    for (; i < m.length && used + m[i].tokens <= contextLength; i++) {
      b.keep(i);
      used += m[i].tokens;
    }
    if (i < m.length) {
      const room = contextLength - used;
      if (!m[i].contentIsString) {
        warnings.push({ code: 'structured-content-dropped', index: i, message: `message ${i} crosses the budget and has structured content, so it is dropped whole` });
      } else if (skeleton.text) {
        const text = skeleton.text.content(i);
        const offset = truncationCut(text, room, skeleton.text.measure);
        const keptText = text.slice(0, offset);
        if (keptText.trim().length > 0) b.cut(i, skeleton.text.measure.count(keptText), { keep: 'start', offset, approximate: false });
      } else if (room > 0) {
        // Without the text, the cut is placed in proportion; the app asks main for the exact one.
        const offset = Math.floor((m[i].length * room) / Math.max(1, m[i].tokens));
        b.cut(i, room, { keep: 'start', offset, approximate: true });
        warnings.push({ code: 'approximate-cut', index: i, message: `message ${i}: the cut position is estimated` });
      }
    }
    return b.finish('truncate', { contextLength }, [], [...warnings, ...orphanWarnings(b)]);
  },
};
