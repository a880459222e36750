import { SummarizerError, summarizerFrom, type Summarizer } from '../../../src/core/summarize/index.js';
import type { Message } from '../../../src/core/message.js';
import { summaryItemOfView, type SummaryItem } from '../../../src/core/summarize/summary-items.js';
import { getTokenizer } from '../../../src/core/tokenizer/index.js';
import { applyPlan } from '../../../src/core/window/apply.js';
import { strategies } from '../../../src/core/window/registry.js';
import { SkeletonCache } from '../../../src/core/window/skeleton-cache.js';
import { compactAllPlan, compactDroppedPlan } from '../../../src/core/window/compaction.js';
import type { ParsedInput } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import { viewOf } from '../documents/documents.js';
import { checkStill, checkVersion } from '../documents/edit-version.js';
import { editStateOf } from './editing.js';
import { sentText } from '../../../src/core/formats/model.js';
import { applyPlanToRecords, countView } from '../../../src/core/views.js';
import type { WindowPlan } from '../../../src/core/window/types.js';
import { swarmsCodec } from '../documents/skeleton.js';
import { skeletonFor } from './window.js';
import type { ConversationState } from './conversation-state.js';
import type { HandlerContext } from './context.js';
import { API_KEY } from './settings.js';
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { archiveAndReseedMemory } from '../../../src/core/storage/memory-md.js';
import { openConversation } from './open-document.js';
import { replaceShown } from '../documents/conversation-views.js';

type Input = ParsedInput<'window:compact'>;

function summarizerFor(input: Input, ctx: HandlerContext, model: string, describe: (m: Message) => SummaryItem, numbers: readonly number[]): Summarizer {
  const s = input.summarizer;
  if (s.kind !== 'openai') return summarizerFrom(s, { model, describe, numbers });
  const settings = ctx.settings.get();
  // The API key stays in main: from the environment, never stored in plain text, never sent to the renderer.
  return summarizerFrom({ kind: 'openai', baseUrl: settings.summaryBaseUrl, model: settings.summaryModel, apiKey: ctx.secrets.get(API_KEY) }, { model, describe });
}

/** Compaction with a preview: the summary is produced first; nothing changes unless `apply`, and then undoably. */
export function compactHandlers(ctx: HandlerContext, conversations: ConversationState): Pick<Handlers, 'window:compact'> {
  const cache = new SkeletonCache();
  return {
    'window:compact': async (input) => {
      const { absolute, doc, conv } = openConversation(ctx, input.path, input.conversation);
      const display = ctx.roots.display(absolute);
      if (input.apply && input.version === undefined) throw new HandlerError('BAD_INPUT', 'an applied compaction names the version of the document it was planned on');
      if (input.apply) checkVersion(doc, input.version!, display, 'the compaction');
      const tokenizer = getTokenizer(input.model);
      const records = conv.records;
      const swarms = swarmsCodec(doc);
      const views = records.map((r) => viewOf(doc.codec, r));
      // Summarisers read swarms-shaped messages: other formats hand them each record's sent text.
      const readable: Message[] = swarms ? records : views.map((v) => ({ role: v.role, content: sentText(v) }));
      const skeleton = skeletonFor(doc, records, tokenizer, cache);
      const applied = (plan: WindowPlan, summaries: string[]): Message[] =>
        swarms ? applyPlan(records, plan, { summaries, measure: tokenizer }) : (applyPlanToRecords(doc.codec, records, views, plan, summaries) as Message[]);
      // The same plans as the library's and the CLI's compact: one summary replaces what they mark.
      let plan: WindowPlan;
      if (input.mode === 'all') plan = compactAllPlan(skeleton);
      else {
        if (!strategies.get(input.strategy)) throw new HandlerError('BAD_INPUT', `unknown strategy "${input.strategy}"`);
        plan = compactDroppedPlan(skeleton, input.strategy, input.params);
      }
      if (plan.inserted.length === 0) throw new HandlerError('BAD_INPUT', input.mode === 'all' ? 'nothing to compact: only the static context is left' : 'this strategy drops nothing: there is nothing to summarise');
      const replaced = plan.inserted[0].replaces.map((i) => readable[i]);
      const build = (summary: string) => applied(plan, [summary]);
      let summary: string;
      try {
        // The offline summary reads each message by its view: calls, results and text in any format.
        const viewOfReadable = new Map(readable.map((m, i) => [m, views[i]] as const));
        const describe = (m: Message) => summaryItemOfView(viewOfReadable.get(m) ?? viewOf(doc.codec, m));
        // Its lines number the messages as the table does.
        summary = (await summarizerFor(input, ctx, input.model, describe, plan.inserted[0].replaces).summarize(replaced)).trim();
      } catch (e) {
        if (e instanceof SummarizerError) throw new HandlerError('IO', `No summary: ${e.message}. Nothing was changed.`);
        throw e;
      }
      const after = build(summary);
      // What the model is sent after it, as before it: a Claude Code session keeps its history before the
      // boundary in the file, but sends only what follows (the file grows; the context shrinks).
      const sent = swarms ? after : (applyPlanToRecords(doc.codec, records, views, plan, [summary], { sent: true }) as Message[]);
      const count = (list: Message[]) => list.reduce((n, m) => n + countView(viewOf(doc.codec, m), tokenizer).tokens, 0);
      const result = {
        summary,
        summaryTokens: tokenizer.countContent(summary),
        replaced: replaced.length,
        messagesAfter: sent.length,
        tokensBefore: count(records),
        tokensAfter: count(sent),
      };
      const memoryPath = join(dirname(doc.path), 'MEMORY.md');
      const memory = existsSync(memoryPath) && memoryPath !== doc.path ? { path: ctx.roots.display(memoryPath) } : undefined;
      if (!input.apply) return { ...result, memory };
      // The summary took a while: it replaces the messages as they were when it was asked for.
      checkStill(ctx.documents.peek(absolute), doc, input.version!, display, 'the compaction');
      // The spec's compact archives MEMORY.md (and re-seeds it) so the log does not keep growing.
      const archived = memory && input.archiveMemory ? archiveAndReseedMemory(memoryPath, basename(doc.path, extname(doc.path))) : undefined;
      replaceShown(doc.conversations, conv, after, `compact ${replaced.length} messages into a summary`, doc.codec, doc.file.doc);
      return {
        ...result,
        memory: memory && { ...memory, archivedTo: archived && ctx.roots.display(archived) },
        state: await editStateOf(ctx, conversations, doc, input.conversation, true),
      };
    },
  };
}
