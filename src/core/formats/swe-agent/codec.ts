import { isPlainObject } from '../../message.js';
import { NotThisFormat, quotedIn, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import type { MessageView } from '../model.js';
import { openAiFromView, openAiView, openAiWithText } from '../openai-chat/view.js';
import { jsonRawText, parseJsonDocument, replaceAt, serializeJsonDocument } from '../shared/json-document.js';

/**
 * A SWE-agent trajectory (`<instance>.traj`: `{trajectory, history, info, replay_config, environment}`) or a
 * mini-SWE-agent one (`<instance>.traj.json`: `{info, messages, trajectory_format}`). The conversation is the
 * chat the model was sent: SWE-agent's `history`, mini's `messages`, both Chat Completions messages with the
 * agent's own fields (`agent`, `message_type`, `thought`, `action`, `is_demo`, `tool_call_ids`; mini's `extra`).
 * The `trajectory` steps repeat what the history holds (each step's response, action and observation) and
 * stay as they are.
 */
function listKey(root: unknown): 'history' | 'messages' | undefined {
  if (!isPlainObject(root)) return undefined;
  if (Array.isArray(root.history) && (Array.isArray(root.trajectory) || isPlainObject(root.info))) return 'history';
  if (Array.isArray(root.messages) && (typeof root.trajectory_format === 'string' || (isPlainObject(root.info) && ('mini_version' in root.info || 'exit_status' in root.info)))) return 'messages';
  return undefined;
}

function view(record: unknown): MessageView {
  const base = openAiView(record);
  const m = isPlainObject(record) ? record : {};
  // SWE-agent answers calls with a list of ids, one message for all of them.
  const ids = Array.isArray(m.tool_call_ids) ? m.tool_call_ids.filter((x): x is string => typeof x === 'string') : [];
  const parts = base.role === 'tool' && ids.length > 0 ? base.parts.map((p) => (p.kind === 'tool-result' && p.callId === undefined ? { ...p, callId: ids[0] } : p)) : base.parts;
  // mini-SWE-agent sends a command's output back as a user message; its usage sits in `extra`.
  const type = typeof m.message_type === 'string' ? m.message_type : base.role === 'user' && typeof m.content === 'string' && m.content.startsWith('<returncode>') ? 'observation' : undefined;
  const usage = isPlainObject(m.extra) && isPlainObject(m.extra.response) && isPlainObject(m.extra.response.usage) ? m.extra.response.usage : undefined;
  const n = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return {
    ...base,
    parts,
    ...(type ? { category: type } : {}),
    // The demonstration is an example run shown to the model, not this run.
    ...(m.is_demo === true ? { meta: true } : {}),
    ...(usage ? { usage: { input: n(usage.prompt_tokens), output: n(usage.completion_tokens) } } : {}),
    ...(typeof m.agent === 'string' && m.agent !== 'main' ? { name: m.agent } : {}),
  };
}

export const sweAgentTrajectory: Codec = {
  id: 'swe-agent-traj',
  label: 'SWE-agent trajectory',
  tool: 'SWE-agent',
  syntax: 'json',
  extensions: ['.traj', '.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: false, otherRecords: true, timestamps: false },
  sniffMarks: ['trajectory_format', 'mini_version', 'history'],
  sniff(head, name, quoted) {
    // Both SWE-agent and mini-SWE-agent write one object; a list (most JSON files a listing meets) is neither.
    if (!head.trimStart().startsWith('{')) return 0;
    if (/\.traj$/i.test(name)) return 60;
    // A listing asks this of every JSON file: the marks first (from the registry's one pass over the head), the
    // patterns only where they are found. Each mark of mini-swe-agent holds one of them.
    const has = (word: string) => quotedIn(head, quoted, word);
    if ((has('trajectory_format') || has('mini_version') || head.includes('minisweagent.')) && /"trajectory_format"\s*:\s*"mini-swe-agent|"mini_version"\s*:|minisweagent\./.test(head)) return 55;
    return has('history') && /"history"\s*:\s*\[/.test(head) && /"trajectory"\s*:\s*\[/.test(head) ? 55 : 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'swe-agent-traj', (root, f, at) => {
      const key = listKey(root);
      if (!key) throw new NotThisFormat('expected a SWE-agent trajectory: {"trajectory": […], "history": […], "info": {…}} or mini-SWE-agent\'s {"info", "messages"}');
      const list = (root as Record<string, unknown[]>)[key];
      list.forEach((m, i) => {
        if (!isPlainObject(m) || typeof m.role !== 'string') throw new ConversationFileError(f, `${key}[${i}] has no "role" (SWE-agent writes system, user, assistant or tool)`, at([key, i]));
      });
      const steps = isPlainObject(root) && Array.isArray(root.trajectory) ? root.trajectory.length : 0;
      return { conversations: [{ records: list }], paths: [list.map((_, i) => [key, i])], otherRecords: steps };
    });
  },
  serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => replaceAt(root, [listKey(root) ?? 'history'], (conversations[0] ?? []).slice())),
  view,
  fromView(v, near) {
    const out = openAiFromView(v);
    // New messages speak as the agent the file's messages do.
    if (isPlainObject(near) && typeof near.agent === 'string') out.agent = near.agent;
    if (out.role === 'tool' && typeof out.tool_call_id === 'string' && isPlainObject(near) && 'tool_call_ids' in near) {
      out.tool_call_ids = [out.tool_call_id];
      delete out.tool_call_id;
    }
    return out;
  },
  loses: (v) => (v.parts.some((p) => p.kind === 'reasoning') ? ['reasoning (a trajectory keeps the thought inside the response text)'] : []),
  withText: openAiWithText,
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
