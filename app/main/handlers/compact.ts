import { ExtractiveSummarizer, OpenAICompatibleSummarizer, SummarizerError, TextSummarizer, type Summarizer } from '../../../src/core/summarize/index.js';
import type { Message } from '../../../src/core/message.js';
import { summaryItemOfView, type SummaryItem } from '../../../src/core/summarize/summary-items.js';
import { getTokenizer } from '../../../src/core/tokenizer/index.js';
import { applyPlan } from '../../../src/core/window/apply.js';
import { strategies } from '../../../src/core/window/registry.js';
import { SkeletonCache } from '../../../src/core/window/skeleton-cache.js';
import { summarizing } from '../../../src/core/window/strategies/summarizing.js';
import { FATE_CODE } from '../../../src/core/window/types.js';
import type { ParsedInput } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import { isDirty, viewOf } from '../documents.js';
import { sentText } from '../../../src/core/formats/model.js';
import { applyPlanToRecords, countView } from '../../../src/core/views.js';
import type { WindowPlan } from '../../../src/core/window/types.js';
import { swarmsCodec } from '../skeleton.js';
import { skeletonFor } from './window.js';
import type { ConversationState } from './conversation-state.js';
import type { HandlerContext } from './context.js';
import { API_KEY } from './settings.js';
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { archiveAndReseedMemory } from '../../../src/core/storage/memory-md.js';
import { openConversation } from './open-document.js';

type Input = ParsedInput<'window:compact'>;

function summarizerFor(input: Input, ctx: HandlerContext, model: string, describe: (m: Message) => SummaryItem): Summarizer {
  const s = input.summarizer;
  if (s.kind === 'text') return new TextSummarizer(s.text);
  if (s.kind === 'offline') return new ExtractiveSummarizer({ measure: getTokenizer(model), maxTokens: s.maxTokens, describe });
  const settings = ctx.settings.get();
  // The API key stays in main: from the environment, never stored in plain text, never sent to the renderer.
  return new OpenAICompatibleSummarizer({ baseUrl: settings.summaryBaseUrl, model: settings.summaryModel, apiKey: ctx.secrets.get(API_KEY) ?? process.env.OPENAI_API_KEY });
}

/** Compaction with a preview: the summary is produced first; nothing changes unless `apply`, and then undoably. */
export function compactHandlers(ctx: HandlerContext, conversations: ConversationState): Pick<Handlers, 'window:compact'> {
  const cache = new SkeletonCache();
  return {
    'window:compact': async (input) => {
      const { doc, conv } = openConversation(ctx, input.path, input.conversation);
      const tokenizer = getTokenizer(input.model);
      const records = conv.records;
      const swarms = swarmsCodec(doc);
      const views = records.map((r) => viewOf(doc.codec, r));
      // Summarisers read swarms-shaped messages: other formats hand them each record's sent text.
      const readable: Message[] = swarms ? records : views.map((v) => ({ role: v.role, content: sentText(v) }));
      const skeleton = skeletonFor(doc, records, tokenizer, cache);
      const summaryRecord = (summary: string): Message =>
        swarms ? { role: 'System', content: summary } : (doc.codec.fromView({ role: 'system', normalRole: 'system', parts: [{ kind: 'text', text: summary }], summary: true }, records[0]) as Message);
      const applied = (plan: WindowPlan, summaries: string[]): Message[] =>
        swarms ? applyPlan(records, plan, { summaries, measure: tokenizer }) : (applyPlanToRecords(doc.codec, records, views, plan, summaries) as Message[]);
      let replaced: Message[];
      let build: (summary: string) => Message[];
      if (input.mode === 'all') {
        const plan = summarizing.plan(skeleton, { force: true, keepRecentMessages: 0 });
        if (plan.inserted.length === 0) throw new HandlerError('BAD_INPUT', 'nothing to compact: only the static context is left');
        replaced = plan.inserted[0].replaces.map((i) => readable[i]);
        build = (summary) => applied(plan, [summary]);
      } else {
        const strategy = strategies.get(input.strategy);
        if (!strategy) throw new HandlerError('BAD_INPUT', `unknown strategy "${input.strategy}"`);
        const plan = strategy.plan(skeleton, input.params);
        const dropped = readable.filter((_, i) => plan.fates[i] === FATE_CODE.dropped);
        if (dropped.length === 0) throw new HandlerError('BAD_INPUT', 'this strategy drops nothing: there is nothing to summarise');
        replaced = dropped;
        const first = plan.fates.indexOf(FATE_CODE.dropped);
        build = (summary) => {
          const kept = applied(plan, plan.inserted.map(() => summary));
          // The summary takes the place of the first dropped message.
          const before = records.slice(0, first).filter((_, i) => plan.fates[i] !== FATE_CODE.dropped && plan.fates[i] !== FATE_CODE.summarised).length;
          return [...kept.slice(0, before), summaryRecord(summary), ...kept.slice(before)];
        };
      }
      let summary: string;
      try {
        // The offline summary reads each message by its view: calls, results and text in any format.
        const viewOfReadable = new Map(readable.map((m, i) => [m, views[i]] as const));
        const describe = (m: Message) => summaryItemOfView(viewOfReadable.get(m) ?? viewOf(doc.codec, m));
        summary = (await summarizerFor(input, ctx, input.model, describe).summarize(replaced)).trim();
      } catch (e) {
        if (e instanceof SummarizerError) throw new HandlerError('IO', `No summary: ${e.message}. Nothing was changed.`);
        throw e;
      }
      const after = build(summary);
      const count = (list: Message[]) => list.reduce((n, m) => n + countView(viewOf(doc.codec, m), tokenizer).tokens, 0);
      const result = {
        summary,
        summaryTokens: tokenizer.countContent(summary),
        replaced: replaced.length,
        messagesAfter: after.length,
        tokensBefore: count(records),
        tokensAfter: count(after),
      };
      const memoryPath = join(dirname(doc.path), 'MEMORY.md');
      const memory = existsSync(memoryPath) && memoryPath !== doc.path ? { path: ctx.roots.display(memoryPath) } : undefined;
      if (!input.apply) return { ...result, memory };
      // The spec's compact archives MEMORY.md (and re-seeds it) so the log does not keep growing.
      const archived = memory && input.archiveMemory ? archiveAndReseedMemory(memoryPath, basename(doc.path, extname(doc.path))) : undefined;
      conv.records = conv.history.apply(conv.records, { type: 'replace-all', messages: after, label: `compact ${replaced.length} messages into a summary` });
      ctx.emit('conversation:changed', { path: ctx.roots.display(doc.path) });
      return {
        ...result,
        memory: memory && { ...memory, archivedTo: archived && ctx.roots.display(archived) },
        state: {
          path: ctx.roots.display(doc.path),
          conversation: input.conversation,
          count: conv.records.length,
          dirty: isDirty(doc),
          conflict: doc.conflict,
          canUndo: conv.history.canUndo,
          canRedo: conv.history.canRedo,
          delta: await conversations.changesSinceShown(doc.path, doc, input.conversation),
        },
      };
    },
  };
}
