import fc from 'fast-check';
import { edgeString } from './edge-arbitraries.js';

/**
 * Random Claude Code sessions in the shapes Claude Code writes, with what they hold known by construction:
 * - a response streamed as a line per content block (one `message.id`, its `requestId`), the usage on each
 *   line the stream's so far (input the same on all, the output growing; the last line's the call's own);
 * - parallel tool calls in the three layouts seen in real files: 1.0.x (every call, then every result, in
 *   any order, chained), 2.1.81 (calls chained, each result off its own call, the next turn off the last
 *   result written), 2.1.150 (call A, result A off it, call B off result A, result B off B);
 * - rewinds and edited prompts (a prompt re-parented where an earlier one was), regenerated answers, a
 *   resume that abandoned a reply (its calls never answered, a new prompt beside it): the real forks;
 * - inline Task sub-agents (isSidechain, a root of their own) between a call and its result;
 * - compactions, 2.x (a boundary with logicalParentUuid, then the summary off it) and 1.0.x (a parentless
 *   isCompactSummary line); /clear (a new root, a new sessionId); local commands written off one Caveat line
 *   as siblings (1.0.x) or in a row (2.x); progress and system lines between messages;
 * - lines naming a parent that is not in the file, and sub-agent files whose first line does.
 */
export interface GeneratedSession {
  text: string;
  /** Each real fork: the uuids of its ways (each way's first line), sorted. */
  forks: string[][];
  /** Per fork (as in `forks`), the uuid of the way the session went on with. */
  wentOn: Array<string | undefined>;
  /** Lines naming a parent the file does not hold, not the first of their thread. */
  reattached: number;
  /** Per `message.id` (or requestId), the usage of its last line. */
  usage: Map<string, { input: number; output: number }>;
}

type Layout = 'linear' | '2.1.81' | '2.1.150';

const usageArb = fc.record({ input: fc.nat({ max: 5000 }), read: fc.nat({ max: 90000 }), write: fc.nat({ max: 9000 }), output: fc.nat({ max: 4000 }) });

const turnArb = fc.record({
  layout: fc.constantFrom<Layout>('linear', '2.1.81', '2.1.150'),
  thinking: fc.boolean(),
  text: fc.option(edgeString, { nil: undefined }),
  calls: fc.nat({ max: 3 }),
  usage: usageArb,
  growth: fc.array(fc.nat({ max: 4000 }), { minLength: 6, maxLength: 6 }),
  noId: fc.nat({ max: 9 }),
  shuffle: fc.array(fc.nat({ max: 5 }), { minLength: 3, maxLength: 3 }),
  progress: fc.boolean(),
  duration: fc.boolean(),
});
type TurnSpec = typeof turnArb extends fc.Arbitrary<infer T> ? T : never;

const stepArb = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('prompt' as const), text: edgeString }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('turn' as const), turn: turnArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rewind' as const), back: fc.nat({ max: 4 }), text: edgeString }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('regenerate' as const), back: fc.nat({ max: 3 }), turn: turnArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('abandon' as const), turn: turnArb, text: edgeString }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sidechain' as const), turns: fc.array(turnArb, { minLength: 1, maxLength: 2 }), text: edgeString }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), style: fc.constantFrom('2.x', '1.0.x'), text: edgeString }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), text: edgeString }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('local' as const), style: fc.constantFrom('1.0.x', '2.x'), command: fc.constantFrom('help', 'model', 'cost', 'config'), output: edgeString }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('missing' as const), text: edgeString }) },
);
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

export const claudeCodeSession: fc.Arbitrary<GeneratedSession> = fc
  .record({ steps: fc.array(stepArb, { minLength: 1, maxLength: 28 }), agentFile: fc.nat({ max: 4 }), crlf: fc.nat({ max: 5 }), first: edgeString })
  .map(({ steps, agentFile, crlf, first }) => build(steps, agentFile === 0, crlf === 0, first));

interface Prompt {
  uuid: string;
  parent: string | null;
}

function build(steps: readonly Step[], agentFile: boolean, crlf: boolean, firstText: string): GeneratedSession {
  const lines: Array<Record<string, unknown>> = [];
  let n = 0;
  // Random-looking first groups, as real uuids have (an inline sub-agent's thread is named by its root's).
  const uuid = () => `${(Math.imul(++n, 2654435761) >>> 0).toString(16).padStart(8, '0')}-0000-4000-8000-${String(n).padStart(12, '0')}`;
  let session = 'aaaaaaaa-0000-4000-8000-000000000001';
  const agentId = agentFile ? 'a7f3e1d2c4b50617' : undefined;
  let time = Date.UTC(2026, 2, 1);
  const base = (sidechain: boolean) => ({ isSidechain: sidechain || agentFile, ...(agentId ? { agentId } : {}), userType: 'external', cwd: '/work', sessionId: session, version: '2.1.81', timestamp: new Date((time += 1000)).toISOString() });
  const parentOf = new Map<string, string | null>();
  // A local command written off the Caveat line beside an earlier one was typed after the line before it.
  const follows = new Map<string, string>();
  const write = (line: Record<string, unknown>) => {
    lines.push(line);
    if (typeof line.uuid === 'string') parentOf.set(line.uuid, (line.parentUuid as string | null) ?? null);
    return line.uuid as string;
  };
  const userLine = (parent: string | null, content: unknown, extra: Record<string, unknown> = {}, sidechain = false) => write({ parentUuid: parent, ...base(sidechain), type: 'user', message: { role: 'user', content }, uuid: uuid(), ...extra });

  // What the file's forks are, by the parent their ways name ('' for none).
  const forks = new Map<string, Set<string>>();
  const fork = (parent: string | null, ...ways: string[]) => {
    const k = parent ?? '';
    const set = forks.get(k) ?? new Set<string>();
    for (const w of ways) set.add(w);
    forks.set(k, set);
  };
  const usage = new Map<string, { input: number; output: number }>();
  let messageIds = 0;
  let toolIds = 0;

  /** One response from `parent`, in its layout: its first line, and the line the next one hangs off. */
  const respond = (parent: string | null, t: TurnSpec, sidechain: boolean, answered = true): { first: string; last: string; calls: number } => {
    const id = `msg_${String(++messageIds).padStart(6, '0')}`;
    const requestId = `req_${String(messageIds).padStart(6, '0')}`;
    const blocks: Array<Record<string, unknown>> = [];
    if (t.thinking) blocks.push({ type: 'thinking', thinking: 'weighing it', signature: 'c2ln' });
    if (t.text !== undefined || (t.calls === 0 && !t.thinking)) blocks.push({ type: 'text', text: t.text ?? 'done' });
    const calls = Array.from({ length: t.calls }, () => `toolu_${String(++toolIds).padStart(6, '0')}`);
    const finalUsage = { input_tokens: t.usage.input, cache_creation_input_tokens: t.usage.write, cache_read_input_tokens: t.usage.read, output_tokens: t.usage.output };
    const count = blocks.length + calls.length;
    let k = 0;
    // The stream's usage so far on each line: the last line's is the call's.
    const usageAt = () => {
      const last = ++k === count;
      return { ...finalUsage, output_tokens: last ? t.usage.output : Math.min(t.usage.output, t.growth[k % t.growth.length]) };
    };
    const withId = t.noId !== 0;
    const assistant = (p: string | null, block: Record<string, unknown>) =>
      write({ parentUuid: p, ...base(sidechain), type: 'assistant', message: { ...(withId ? { id } : {}), type: 'message', role: 'assistant', model: 'claude-opus-4-6', content: [block], stop_reason: null, usage: usageAt() }, requestId, uuid: uuid() });
    const result = (p: string, call: string) => userLine(p, [{ type: 'tool_result', tool_use_id: call, content: `result of ${call}` }], { toolUseResult: { ok: true } }, sidechain);
    const progress = (p: string) => write({ parentUuid: p, ...base(sidechain), type: 'progress', data: { type: 'hook_progress' }, uuid: uuid() });
    usage.set(withId ? id : requestId, { input: t.usage.input + t.usage.read + t.usage.write, output: t.usage.output });
    let at = parent;
    let first: string | undefined;
    const put = (block: Record<string, unknown>) => {
      at = assistant(at, block);
      first ??= at;
      return at;
    };
    for (const b of blocks) put(b);
    const order = calls.map((c, i) => ({ c, i, key: t.shuffle[i % t.shuffle.length] })).sort((a, b) => a.key - b.key || a.i - b.i);
    if (t.layout === '2.1.150') {
      for (const c of calls) {
        const line = put({ type: 'tool_use', id: c, name: 'Read', input: { file_path: `/work/${c}` } });
        if (answered) at = result(line, c);
      }
    } else {
      const lineOf = new Map<string, string>();
      for (const c of calls) lineOf.set(c, put({ type: 'tool_use', id: c, name: 'Grep', input: { pattern: c } }));
      if (answered) {
        for (const { c } of order) {
          if (t.layout === '2.1.81') {
            if (t.progress) progress(lineOf.get(c)!);
            at = result(lineOf.get(c)!, c);
          } else at = result(at!, c);
        }
      }
    }
    if (answered && calls.length === 0 && t.duration && !sidechain) at = write({ parentUuid: at, ...base(false), type: 'system', subtype: 'turn_duration', durationMs: 1200, uuid: uuid() });
    return { first: first!, last: at!, calls: calls.length };
  };

  let tip: string | null = agentFile ? 'ffffffff-0000-4000-8000-00000000dead' : null;
  let reattached = 0;
  let prompts: Prompt[] = [];
  let responses: Prompt[] = [];
  let caveat: string | undefined;
  const newPart = () => {
    prompts = [];
    responses = [];
    caveat = undefined;
  };
  // The first line: a prompt (a sub-agent file's names the Task call's line in its parent session).
  tip = userLine(tip, firstText);

  for (const s of steps) {
    switch (s.kind) {
      case 'prompt': {
        const p = tip;
        tip = userLine(p, s.text);
        prompts.push({ uuid: tip, parent: p });
        break;
      }
      case 'turn': {
        const p = tip;
        const r = respond(p, s.turn, false);
        responses.push({ uuid: r.first, parent: p });
        tip = r.last;
        break;
      }
      case 'rewind': {
        const target = prompts[prompts.length - 1 - s.back];
        if (!target || target.parent === null) break;
        tip = userLine(target.parent, s.text);
        fork(target.parent, target.uuid, tip);
        prompts.push({ uuid: tip, parent: target.parent });
        break;
      }
      case 'regenerate': {
        const target = responses[responses.length - 1 - s.back];
        if (!target) break;
        const r = respond(target.parent, s.turn, false);
        fork(target.parent, target.uuid, r.first);
        responses.push({ uuid: r.first, parent: target.parent });
        tip = r.last;
        break;
      }
      case 'abandon': {
        const p = tip;
        const r = respond(p, { ...s.turn, calls: Math.max(1, s.turn.calls) }, false, false);
        responses.push({ uuid: r.first, parent: p });
        // Resumed from before the reply: a new prompt beside it.
        tip = userLine(p, s.text);
        fork(p, r.first, tip);
        prompts.push({ uuid: tip, parent: p });
        break;
      }
      case 'sidechain': {
        if (agentFile) break;
        const p = tip;
        const task = `toolu_${String(++toolIds).padStart(6, '0')}`;
        const call = write({ parentUuid: p, ...base(false), type: 'assistant', message: { id: `msg_${String(++messageIds).padStart(6, '0')}`, type: 'message', role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'tool_use', id: task, name: 'Task', input: { prompt: 'look around' } }], usage: { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 9 } }, requestId: `req_${String(messageIds).padStart(6, '0')}`, uuid: uuid() });
        usage.set(`msg_${String(messageIds).padStart(6, '0')}`, { input: 3, output: 9 });
        responses.push({ uuid: call, parent: p });
        let side = userLine(null, s.text, {}, true);
        for (const t of s.turns) side = respond(side, t, true).last;
        tip = userLine(call, [{ type: 'tool_result', tool_use_id: task, content: 'the sub-agent found it' }], {}, false);
        break;
      }
      case 'compact': {
        if (agentFile) break;
        if (s.style === '2.x') {
          const boundary = write({ parentUuid: null, logicalParentUuid: tip, ...base(false), type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 160000, postTokens: 9000 }, uuid: uuid() });
          tip = userLine(boundary, `This session is being continued from a previous conversation. ${s.text}`, { isCompactSummary: true, isVisibleInTranscriptOnly: true });
        } else tip = userLine(null, `This session is being continued from a previous conversation. ${s.text}`, { isCompactSummary: true });
        newPart();
        break;
      }
      case 'clear': {
        if (agentFile) break;
        const command = userLine(caveat ?? tip, '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>');
        if (caveat !== undefined && tip !== null) follows.set(command, tip);
        userLine(command, '<local-command-stdout></local-command-stdout>');
        session = `bbbbbbbb-0000-4000-8000-${String(++n).padStart(12, '0')}`;
        newPart();
        tip = userLine(null, s.text);
        break;
      }
      case 'local': {
        if (s.style === '2.x' || caveat === undefined) {
          caveat = userLine(tip, 'Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.', { isMeta: true });
          if (s.style === '2.x') {
            const command = userLine(caveat, `<command-name>/${s.command}</command-name>`);
            tip = userLine(command, `<local-command-stdout>${s.output}</local-command-stdout>`);
            caveat = undefined;
            break;
          }
        }
        const beside = caveat !== tip;
        const command = userLine(caveat, `<command-name>/${s.command}</command-name>`);
        if (beside && tip !== null) follows.set(command, tip);
        tip = userLine(command, `<local-command-stdout>${s.output}</local-command-stdout>`);
        break;
      }
      case 'missing': {
        tip = userLine(`eeeeeeee-0000-4000-8000-${String(++n).padStart(12, '0')}`, s.text);
        reattached++;
        break;
      }
    }
  }

  // The way each fork went on with: the one the last line's history runs through (parents, then what a
  // compaction or a new part goes on from: the line written before it).
  const history = new Set<string>();
  const order = lines.filter((l) => typeof l.uuid === 'string').map((l) => l.uuid as string);
  for (let at: string | null | undefined = tip; at; ) {
    if (history.has(at)) break;
    history.add(at);
    const line = lines.find((l) => l.uuid === at)!;
    const p: string | null | undefined = follows.get(at) ?? parentOf.get(at);
    if (p && parentOf.has(p)) at = p;
    else if (typeof line.logicalParentUuid === 'string') at = line.logicalParentUuid;
    else {
      // A root, or a line whose parent is not in the file: it goes on from the line of its thread written
      // before it (the main thread's: not an inline sub-agent's).
      const k = order.indexOf(at);
      at = order
        .slice(0, k)
        .reverse()
        .find((u) => agentFile || lines.find((l) => l.uuid === u)!.isSidechain !== true);
    }
  }
  const eol = crlf ? '\r\n' : '\n';
  const found = [...forks.values()].filter((ways) => ways.size > 1).map((ways) => [...ways].sort());
  return {
    text: lines.map((l) => JSON.stringify(l)).join(eol) + eol,
    forks: found,
    wentOn: found.map((ways) => ways.find((w) => history.has(w))),
    reattached,
    usage,
  };
}
