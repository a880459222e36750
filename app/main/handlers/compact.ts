import { ExtractiveSummarizer, OpenAICompatibleSummarizer, SummarizerError, TextSummarizer, type Summarizer } from '../../../src/core/summarize/index.js';
import type { Message } from '../../../src/core/message.js';
import { getTokenizer } from '../../../src/core/tokenizer/index.js';
import { applyPlan } from '../../../src/core/window/apply.js';
import { strategies } from '../../../src/core/window/registry.js';
import { SkeletonCache } from '../../../src/core/window/skeleton-cache.js';
import { summarizing } from '../../../src/core/window/strategies/summarizing.js';
import { FATE_CODE } from '../../../src/core/window/types.js';
import type { ParsedInput } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import { isDirty } from '../documents.js';
import type { HandlerContext } from './context.js';
import { API_KEY } from './settings.js';
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { archiveAndReseedMemory } from '../../../src/core/storage/memory-md.js';
import { openDocument } from './open-document.js';

type Input = ParsedInput<'window:compact'>;

function summarizerFor(input: Input, ctx: HandlerContext, model: string): Summarizer {
  const s = input.summarizer;
  if (s.kind === 'text') return new TextSummarizer(s.text);
  if (s.kind === 'offline') return new ExtractiveSummarizer({ measure: getTokenizer(model), maxTokens: s.maxTokens });
  const settings = ctx.settings.get();
  // The API key stays in main: from the environment, never stored in plain text, never sent to the renderer.
  return new OpenAICompatibleSummarizer({ baseUrl: settings.summaryBaseUrl, model: settings.summaryModel, apiKey: ctx.secrets.get(API_KEY) ?? process.env.OPENAI_API_KEY });
}

/** Compaction with a preview: the summary is produced first; nothing changes unless `apply`, and then undoably. */
export function compactHandlers(ctx: HandlerContext): Pick<Handlers, 'window:compact'> {
  const cache = new SkeletonCache();
  return {
    'window:compact': async (input) => {
      const { doc } = openDocument(ctx, input.path);
      const tokenizer = getTokenizer(input.model);
      const messages = doc.messages;
      const skeleton = cache.skeleton(messages, tokenizer, undefined, { countToolCalls: true });
      let replaced: Message[];
      let build: (summary: string) => Message[];
      if (input.mode === 'all') {
        const plan = summarizing.plan(skeleton, { force: true, keepRecentMessages: 0 });
        if (plan.inserted.length === 0) throw new HandlerError('BAD_INPUT', 'nothing to compact: only the static context is left');
        replaced = plan.inserted[0].replaces.map((i) => messages[i]);
        build = (summary) => applyPlan(messages, plan, { summaries: [summary] });
      } else {
        const strategy = strategies.get(input.strategy);
        if (!strategy) throw new HandlerError('BAD_INPUT', `unknown strategy "${input.strategy}"`);
        const plan = strategy.plan(skeleton, input.params);
        const dropped = messages.filter((_, i) => plan.fates[i] === FATE_CODE.dropped);
        if (dropped.length === 0) throw new HandlerError('BAD_INPUT', 'this strategy drops nothing: there is nothing to summarise');
        replaced = dropped;
        const first = plan.fates.indexOf(FATE_CODE.dropped);
        build = (summary) => {
          const kept = applyPlan(messages, plan, { summaries: plan.inserted.map(() => summary), measure: tokenizer });
          // The summary takes the place of the first dropped message.
          const before = messages.slice(0, first).filter((_, i) => plan.fates[i] !== FATE_CODE.dropped && plan.fates[i] !== FATE_CODE.summarised).length;
          return [...kept.slice(0, before), { role: 'System', content: summary }, ...kept.slice(before)];
        };
      }
      let summary: string;
      try {
        summary = (await summarizerFor(input, ctx, input.model).summarize(replaced)).trim();
      } catch (e) {
        if (e instanceof SummarizerError) throw new HandlerError('IO', `No summary: ${e.message}. Nothing was changed.`);
        throw e;
      }
      const after = build(summary);
      const count = (list: Message[]) => list.reduce((n, m) => n + tokenizer.countContent(m.content), 0);
      const result = {
        summary,
        summaryTokens: tokenizer.countContent(summary),
        replaced: replaced.length,
        messagesAfter: after.length,
        tokensBefore: count(messages),
        tokensAfter: count(after),
      };
      const memoryPath = join(dirname(doc.path), 'MEMORY.md');
      const memory = existsSync(memoryPath) ? { path: ctx.roots.display(memoryPath) } : undefined;
      if (!input.apply) return { ...result, memory };
      // The spec's compact archives MEMORY.md (and re-seeds it) so the log does not keep growing.
      const archived = memory && input.archiveMemory ? archiveAndReseedMemory(memoryPath, basename(doc.path, extname(doc.path))) : undefined;
      doc.messages = doc.history.apply(doc.messages, { type: 'replace-all', messages: after, label: `compact ${replaced.length} messages into a summary` });
      ctx.emit('conversation:changed', { path: ctx.roots.display(doc.path) });
      return {
        ...result,
        memory: memory && { ...memory, archivedTo: archived && ctx.roots.display(archived) },
        state: { path: ctx.roots.display(doc.path), count: doc.messages.length, dirty: isDirty(doc), conflict: doc.conflict, canUndo: doc.history.canUndo, canRedo: doc.history.canRedo },
      };
    },
  };
}
