import { toolLinksOf, type MessageView } from './formats/model.js';

/**
 * A conversation's model calls: per call, its first and last message, in the order the calls begin. A call's
 * messages are those between them of its own chain: a sub-agent's lines written inline (between a Task call and
 * its result) are the sub-agent's calls, not the Task call's.
 */
export interface ApiCalls {
  first: number[];
  last: number[];
}

/**
 * Which messages each model call made, as the conversation is laid out (a Claude Code session's lines as the
 * model saw them: one response's lines, then the results of its tool calls). A call is a run of the model's
 * messages (Claude Code writes a line per content block, Codex an item per reasoning, message and call) and
 * the tool results after them that answer its calls (or that name no call); it ends at anything else of its
 * chain: a prompt, a system message, a compaction, or a model's message after a result (the next call). Two
 * lines that name different calls (`usage.key`: Claude Code's `message.id`) are two calls even side by side.
 * `oneMessageEach`: the file writes one message per call (a swarms history, its agents under their own names).
 */
export function apiCalls(views: readonly MessageView[], options: { oneMessageEach?: boolean } = {}): ApiCalls {
  const first: number[] = [];
  const last: number[] = [];
  // The main thread and a sub-agent written inline go on apart.
  const chains = [0, 1].map(() => ({ call: -1, answering: false, key: undefined as string | undefined, ids: new Set<string>() }));
  const close = (c: (typeof chains)[number]) => {
    c.call = -1;
    c.answering = false;
    c.key = undefined;
    c.ids.clear();
  };
  views.forEach((v, i) => {
    const c = chains[v.sidechain ? 1 : 0];
    if (v.compaction !== undefined || v.summary === true) {
      close(chains[0]);
      close(chains[1]);
      return;
    }
    // The tool's own line in the model's place (a call that failed before the model wrote anything, a deleted or
    // demonstration reply) is no call of the model's.
    if (v.meta === true && v.normalRole === 'assistant') {
      close(c);
      return;
    }
    const links = toolLinksOf(v);
    // A model's message that holds its calls' results too (Gemini CLI keeps each call's result in the message
    // that made it) is a call of the model all the same: the results after it are answered, and it is not one.
    const calling = v.parts.some((p) => p.kind === 'tool-call');
    if (v.normalRole === 'assistant' && (!links.toolLike || calling)) {
      const own = v.usage?.key;
      const another = c.key !== undefined && own !== undefined && own !== c.key;
      if (c.call < 0 || c.answering || another || options.oneMessageEach) {
        close(c);
        c.call = first.length;
        first.push(i);
        last.push(i);
      }
      c.key ??= own;
      for (const id of links.callIds) c.ids.add(id);
      last[c.call] = i;
      // Its results came back with it: the model's next message is the next call.
      if (links.toolLike) c.answering = true;
      return;
    }
    if (c.call >= 0 && links.toolLike && (links.resultId === undefined || c.ids.has(links.resultId))) {
      c.answering = true;
      last[c.call] = i;
      return;
    }
    close(c);
  });
  return { first, last };
}
