import { basename } from 'node:path';
import { compareSessions, compareSide } from '../../../src/core/compare/index.js';
import { newestLeafUnder, pathTo } from '../../../src/core/tree/message-tree.js';
import { defaultLeaf, threadName } from '../../../src/core/tree/thread-paths.js';
import { getTokenizer, resolveEncoding } from '../../../src/core/tokenizer/index.js';
import { standsIn } from '../../../src/core/tokenizer/estimate.js';
import { countView } from '../../../src/core/views.js';
import type { CompareAnswer, CompareSideInput } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import { conversationModel } from '../documents/counting-model.js';
import { branchLeaf } from '../documents/conversation-views.js';
import { viewOf } from '../documents/documents.js';
import type { Handlers } from '../dispatch.js';
import type { HandlerContext } from './context.js';
import { openConversation } from './open-document.js';

/** Characters of a message sent to the page: the rest is said (`more`), and marks past it are left out. */
const TEXT_LIMIT = 4000;

/** The records a side compares, where each is among the file's (a tree) or the conversation's rows, and what it is. */
function resolveSide(ctx: HandlerContext, side: CompareSideInput) {
  const { doc, conv } = openConversation(ctx, side.path, side.conversation);
  const name = basename(side.path);
  if (!conv.store || !conv.view) {
    if (side.branch || side.leaf !== undefined) throw new HandlerError('BAD_INPUT', `${side.path} is one list of messages: it has no branches to compare`);
    return { doc, conv, records: conv.records, at: conv.records.map((_, i) => i), what: doc.conversations.length > 1 ? `conversation ${side.conversation + 1}` : '', title: name, leaves: undefined };
  }
  const store = conv.store;
  const thread = conv.view.thread;
  const resumed = defaultLeaf(store.tree, thread);
  let leaf = resumed;
  if (side.branch) {
    const chosen = branchLeaf(conv, side.branch.at, side.branch.option);
    if (chosen === undefined) throw new HandlerError('BAD_INPUT', `row ${side.branch.at} of ${side.path} has no branch ${side.branch.option + 1} (open the conversation again: its forks may have changed)`);
    leaf = chosen;
  } else if (side.leaf !== undefined) {
    if (side.leaf >= store.all.length || store.tree.thread[side.leaf] !== thread) throw new HandlerError('BAD_INPUT', `message ${side.leaf} is not in the thread of conversation ${side.conversation}`);
    leaf = newestLeafUnder(store.tree, side.leaf);
  }
  // Whole, through compactions: a branch before a compaction is only on the whole path.
  const at = leaf >= 0 ? pathTo(store.tree, leaf, true) : [];
  const main = resumed >= 0 ? pathTo(store.tree, resumed, true) : [];
  // Where the path leaves the one the session went on with (undefined: it is that one).
  let leaves: number | undefined;
  for (let k = 0; k < Math.max(at.length, main.length) && leaves === undefined; k++) if (at[k] !== main[k]) leaves = k;
  const threadWhat = thread === 'main' ? 'main thread' : threadName(thread);
  return { doc, conv, records: at.map((i) => store.all[i]), at, what: threadWhat, title: name, leaves };
}

/** Two sessions or two branches side by side. */
export function compareHandlers(ctx: HandlerContext): Pick<Handlers, 'compare:sessions'> {
  return {
    'compare:sessions': ({ a, b }): CompareAnswer => {
      const left = resolveSide(ctx, a);
      const right = resolveSide(ctx, b);
      // One tokenizer for both: the left conversation's model (or the one picked in the settings).
      const model = conversationModel(ctx, left.doc, left.conv);
      const tokenizer = getTokenizer(model);
      const side = (s: typeof left) => {
        const views = s.records.map((r) => viewOf(s.doc.codec, r));
        return compareSide(
          views,
          views.map((v) => countView(v, tokenizer).tokens),
          { model },
        );
      };
      const lm = side(left);
      const rm = side(right);
      // A branch is named by where it leaves the way the session went on: its message number in this view.
      for (const [s, ms] of [
        [left, lm],
        [right, rm],
      ] as const) {
        if (s.leaves === undefined) continue;
        const k = ms.findIndex((m) => (m.at ?? 0) + (m.lines ?? 1) > s.leaves!);
        s.what = `${s.what === 'main thread' ? 'the' : `${s.what}:`} branch from #${(k < 0 ? ms.length : k) + 1} (not the way the session went on)`;
      }
      const c = compareSessions(lm, rm);
      const cut = (ranges: Array<[number, number]>) => ranges.filter(([s]) => s < TEXT_LIMIT).map(([s, e]): [number, number] => [s, Math.min(e, TEXT_LIMIT)]);
      const messages = (ms: typeof lm, s: typeof left) =>
        ms.map((m) => ({
          role: m.role,
          normalRole: m.normalRole,
          text: m.text.length > TEXT_LIMIT ? m.text.slice(0, TEXT_LIMIT) : m.text,
          ...(m.text.length > TEXT_LIMIT ? { more: m.text.length - TEXT_LIMIT } : {}),
          tokens: m.tokens,
          ...(m.cost !== undefined ? { cost: m.cost } : {}),
          ...(m.costEstimated ? { costEstimated: true } : {}),
          at: s.at[m.at ?? 0] ?? 0,
          lines: m.lines ?? 1,
        }));
      const choice = resolveEncoding(model);
      return {
        sides: [
          { path: a.path, conversation: a.conversation, what: left.what, title: left.title, figures: c.left, messages: messages(lm, left) },
          { path: b.path, conversation: b.conversation, what: right.what, title: right.title, figures: c.right, messages: messages(rm, right) },
        ],
        rows: c.rows.map((r) => (r.words ? { ...r, words: { left: cut(r.words.left), right: cut(r.words.right) } } : r)),
        turns: c.turns,
        differences: c.differences,
        counts: c.counts,
        delta: c.delta,
        countedWith: standsIn(choice) ?? choice.encoding,
        approximate: choice.approximate,
      };
    },
  };
}
