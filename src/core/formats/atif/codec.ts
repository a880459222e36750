import { isPlainObject } from '../../message.js';
import { argumentsObject, argumentsText } from '../content-parts.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { looseText, type MessageView, type NormalRole, type Part } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument } from '../shared/json-document.js';
import type { Problem } from '../validity.js';

/**
 * An ATIF trajectory (Agent Trajectory Interchange Format, Harbor's RFC 0001 and `harbor.models.trajectories`;
 * what Harbor and Terminal-Bench write as `trajectory.json`): `{schema_version: "ATIF-v1.x", session_id, agent:
 * {name, version, model_name}, steps, notes, final_metrics, extra}`. Each step is one record: `{step_id,
 * timestamp, source: system | user | agent, model_name, message, reasoning_content, tool_calls: [{tool_call_id,
 * function_name, arguments}], observation: {results: [{source_call_id, content, subagent_trajectory_ref}]},
 * metrics: {prompt_tokens, completion_tokens, cached_tokens, cost_usd}, is_copied_context, extra}`. An agent
 * step holds its calls and their results (the observation); `message` and a result's `content` are a string
 * or, since v1.6, a list of `{type: "text", text}` and `{type: "image", source: {media_type, path}}` parts.
 * `prompt_tokens` counts every input token, `cached_tokens` among them.
 */

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A message or result that is a string or a list of ATIF content parts, as parts. */
function contentParts(content: unknown): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return content === undefined || content === null ? [] : [{ kind: 'text', text: looseText(content) }];
  return content.map((p): Part => {
    if (isPlainObject(p) && p.type === 'text' && typeof p.text === 'string') return { kind: 'text', text: p.text };
    if (isPlainObject(p) && p.type === 'image') {
      const source = isPlainObject(p.source) ? p.source : {};
      return { kind: 'image', ref: str(source.path) ?? str(source.url) ?? 'image', mediaType: str(source.media_type) };
    }
    return { kind: 'unknown', type: isPlainObject(p) && typeof p.type === 'string' ? p.type : typeof p, text: JSON.stringify(p) ?? '' };
  });
}

/** A result's content as text: its text parts (images are the model's to see, not text). */
function resultText(result: Record<string, unknown>): string {
  const texts = contentParts(result.content).flatMap((p) => (p.kind === 'text' || p.kind === 'unknown' ? [p.text] : []));
  if (texts.length > 0) return texts.join('\n');
  // A delegation whose result is the sub-agent's own trajectory.
  const refs = Array.isArray(result.subagent_trajectory_ref) ? result.subagent_trajectory_ref.filter(isPlainObject) : [];
  return refs.map((r) => `sub-agent trajectory ${String(r.session_id ?? '')}${typeof r.trajectory_path === 'string' ? ` (${r.trajectory_path})` : ''}`).join('\n');
}

const ROLES: Record<string, NormalRole> = { system: 'system', user: 'user', agent: 'assistant' };

export function atifView(record: unknown): MessageView {
  const s = isPlainObject(record) ? record : {};
  const source = typeof s.source === 'string' ? s.source : '?';
  const parts: Part[] = [];
  if (typeof s.reasoning_content === 'string' && s.reasoning_content !== '') parts.push({ kind: 'reasoning', text: s.reasoning_content });
  for (const p of contentParts(s.message)) parts.push(p);
  for (const c of Array.isArray(s.tool_calls) ? s.tool_calls : []) {
    if (!isPlainObject(c)) continue;
    parts.push({ kind: 'tool-call', id: str(c.tool_call_id), name: String(c.function_name ?? ''), arguments: argumentsText(c.arguments ?? {}) });
  }
  const observation = isPlainObject(s.observation) ? s.observation : {};
  for (const r of Array.isArray(observation.results) ? observation.results : []) {
    if (!isPlainObject(r)) continue;
    parts.push({ kind: 'tool-result', callId: str(r.source_call_id), text: resultText(r) });
    for (const p of contentParts(r.content)) if (p.kind === 'image') parts.push(p);
  }
  const m = isPlainObject(s.metrics) ? s.metrics : undefined;
  const extra = m && isPlainObject(m.extra) ? m.extra : {};
  const usage = m && (num(m.prompt_tokens) !== undefined || num(m.completion_tokens) !== undefined) ? { input: num(m.prompt_tokens), output: num(m.completion_tokens), cacheRead: num(m.cached_tokens), cacheWrite: num(extra.cache_creation_input_tokens), reasoning: num(extra.reasoning_tokens) } : undefined;
  return {
    role: source,
    normalRole: ROLES[source] ?? 'other',
    parts,
    timestamp: str(s.timestamp),
    id: typeof s.step_id === 'number' || typeof s.step_id === 'string' ? String(s.step_id) : undefined,
    // A step copied from an earlier trajectory for context (v1.5): not this run's own.
    ...(s.is_copied_context === true ? { category: 'copied context' } : {}),
    model: str(s.model_name),
    ...(usage ? { usage: Object.fromEntries(Object.entries(usage).filter(([, v]) => v !== undefined)) } : {}),
  };
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

export function atifFromView(v: MessageView, near?: unknown): Record<string, unknown> {
  const text = v.parts.filter((p) => p.kind === 'text' || p.kind === 'unknown').map((p) => (p as { text: string }).text).join('\n');
  const calls = v.parts.filter((p) => p.kind === 'tool-call');
  const results = v.parts.filter((p) => p.kind === 'tool-result');
  const reasoning = v.parts.filter((p) => p.kind === 'reasoning' && !p.encrypted).map((p) => (p as { text: string }).text).filter((t) => t !== '');
  // Only an agent step may hold calls, reasoning, a model and metrics.
  const agent = v.normalRole === 'assistant' || v.normalRole === 'tool' || calls.length > 0 || reasoning.length > 0;
  const source = agent ? 'agent' : v.normalRole === 'system' ? 'system' : 'user';
  const stepId = isPlainObject(near) && typeof near.step_id === 'number' ? near.step_id + 1 : 1;
  const out: Record<string, unknown> = { step_id: stepId, timestamp: v.timestamp && ISO.test(v.timestamp) ? v.timestamp : new Date().toISOString(), source };
  if (agent && v.model) out.model_name = v.model;
  out.message = text;
  if (reasoning.length > 0) out.reasoning_content = reasoning.join('\n\n');
  if (calls.length > 0) {
    out.tool_calls = calls.map((c, k) => {
      // ATIF's arguments are an object.
      return { tool_call_id: c.id ?? `call_${stepId}_${k}`, function_name: c.name, arguments: argumentsObject(c.arguments) };
    });
  }
  if (results.length > 0) out.observation = { results: results.map((r) => ({ ...(r.callId ? { source_call_id: r.callId } : {}), content: r.text })) };
  const u = v.usage;
  if (agent && u && (u.input !== undefined || u.output !== undefined)) {
    out.metrics = { ...(u.input !== undefined ? { prompt_tokens: u.input } : {}), ...(u.output !== undefined ? { completion_tokens: u.output } : {}), ...(u.cacheRead !== undefined ? { cached_tokens: u.cacheRead } : {}) };
  }
  return out;
}

/** What Harbor's models refuse: step ids out of order, a result naming no call of its step, agent-only fields elsewhere. */
function problems(steps: readonly unknown[]): Problem[] {
  const out: Problem[] = [];
  steps.forEach((step, i) => {
    if (!isPlainObject(step)) return;
    if (step.step_id !== i + 1) out.push({ conversation: 0, message: i, text: `step_id ${JSON.stringify(step.step_id)} where Harbor expects ${i + 1} (steps are numbered 1, 2, 3, … in order)` });
    if (step.source !== 'agent') {
      for (const f of ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics']) if (step[f] !== undefined && step[f] !== null) out.push({ conversation: 0, message: i, text: `a ${String(step.source)} step with "${f}" (only agent steps have it)` });
    }
    const ids = new Set((Array.isArray(step.tool_calls) ? step.tool_calls : []).flatMap((c) => (isPlainObject(c) && typeof c.tool_call_id === 'string' ? [c.tool_call_id] : [])));
    const results = isPlainObject(step.observation) && Array.isArray(step.observation.results) ? step.observation.results : [];
    for (const r of results) {
      if (isPlainObject(r) && typeof r.source_call_id === 'string' && !ids.has(r.source_call_id)) out.push({ conversation: 0, message: i, text: `a result for ${r.source_call_id}, which is no tool call of its step` });
    }
  });
  return out;
}

export const atifTrajectory: Codec = {
  id: 'atif-trajectory',
  label: 'ATIF trajectory (Harbor)',
  tool: 'Harbor',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: false, timestamps: true, toolParts: 'turn' },
  sniffNeeds: ['schema_version', 'steps'],
  sniff(head) {
    if (!head.trimStart().startsWith('{')) return 0;
    if (/"schema_version"\s*:\s*"ATIF-v/.test(head)) return 70;
    return /"steps"\s*:\s*\[/.test(head) && /"step_id"\s*:/.test(head) && /"source"\s*:\s*"(agent|user|system)"/.test(head) ? 45 : 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'atif-trajectory', (root, f, at) => {
      if (!isPlainObject(root) || !Array.isArray(root.steps)) throw new NotThisFormat('expected an ATIF trajectory: {"schema_version": "ATIF-v1.x", "session_id", "agent", "steps": […]}');
      if (!(typeof root.schema_version === 'string' && root.schema_version.startsWith('ATIF')) && !(isPlainObject(root.agent) && root.steps.some((s) => isPlainObject(s) && 'step_id' in s))) throw new NotThisFormat('expected an ATIF trajectory (no "schema_version": "ATIF-v…")');
      root.steps.forEach((s, i) => {
        if (!isPlainObject(s) || typeof s.source !== 'string') throw new ConversationFileError(f, `step ${i} has no "source" (ATIF writes system, user or agent)`, at(['steps', i]));
      });
      const agent = isPlainObject(root.agent) ? root.agent : {};
      const meta = { ...(typeof root.session_id === 'string' ? { sessionId: root.session_id } : {}), ...(typeof agent.version === 'string' ? { version: agent.version } : {}) };
      return { conversations: [{ records: root.steps, ...(Object.keys(meta).length > 0 ? { meta } : {}) }], paths: [root.steps.map((_, i) => ['steps', i])] };
    });
  },
  serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => ({ ...(isPlainObject(root) ? root : {}), steps: (conversations[0] ?? []).slice() })),
  view: atifView,
  fromView: atifFromView,
  loses: (v) => [
    ...(v.parts.some((p) => p.kind === 'reasoning' && p.encrypted) ? ['encrypted reasoning (an ATIF step keeps reasoning as text)'] : []),
    ...(v.parts.some((p) => p.kind === 'image' || p.kind === 'file') ? ['images and files (a converted step keeps text only)'] : []),
  ],
  withText(record, text) {
    if (!isPlainObject(record)) return undefined;
    if (typeof record.message === 'string' || record.message === undefined || record.message === null) return { ...record, message: text };
    if (Array.isArray(record.message)) {
      const texts = record.message.filter((p) => isPlainObject(p) && p.type === 'text');
      if (texts.length !== 1) return undefined;
      return { ...record, message: record.message.map((p) => (p === texts[0] ? { ...(p as object), text } : p)) };
    }
    return undefined;
  },
  validate: (doc) => problems(doc.conversations[0]?.records ?? []),
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};

/**
 * A new trajectory holding these steps, as Harbor validates one: steps numbered from 1, each result in the
 * step whose call it answers (a conversion folds results into the turn after the call), empty steps left out.
 */
export function newAtifTrajectory(records: readonly unknown[], options: { sessionId?: string; version?: string } = {}): string {
  const steps = records.map((r) => (isPlainObject(r) ? { ...r } : r)) as Record<string, unknown>[];
  const owner = new Map<string, Record<string, unknown>>();
  for (const s of steps) for (const c of Array.isArray(s.tool_calls) ? s.tool_calls : []) if (isPlainObject(c) && typeof c.tool_call_id === 'string') owner.set(c.tool_call_id, s);
  for (const s of steps) {
    const results = isPlainObject(s.observation) && Array.isArray(s.observation.results) ? s.observation.results : undefined;
    if (!results) continue;
    const stay = results.filter((r) => {
      const home = isPlainObject(r) && typeof r.source_call_id === 'string' ? owner.get(r.source_call_id) : undefined;
      if (!home || home === s) return true;
      const theirs = isPlainObject(home.observation) && Array.isArray(home.observation.results) ? home.observation.results : [];
      home.observation = { ...(isPlainObject(home.observation) ? home.observation : {}), results: [...theirs, r] };
      return false;
    });
    if (stay.length !== results.length) {
      if (stay.length > 0) s.observation = { ...(s.observation as object), results: stay };
      else delete s.observation;
    }
  }
  const kept = steps.filter((s) => !(s.message === '' && s.observation === undefined && s.tool_calls === undefined && s.reasoning_content === undefined));
  kept.forEach((s, i) => (s.step_id = i + 1));
  const model = kept.find((s) => typeof s.model_name === 'string')?.model_name;
  const metrics = kept.flatMap((s) => (isPlainObject(s.metrics) ? [s.metrics] : []));
  const total = (key: string) => metrics.reduce((n, m) => n + (typeof m[key] === 'number' ? (m[key] as number) : 0), 0);
  const final = metrics.length > 0 ? { total_prompt_tokens: total('prompt_tokens'), total_completion_tokens: total('completion_tokens'), total_cached_tokens: total('cached_tokens'), total_steps: kept.length } : { total_steps: kept.length };
  const root = { schema_version: 'ATIF-v1.4', session_id: options.sessionId ?? crypto.randomUUID(), agent: { name: 'conversation-inspector', version: options.version ?? '1.0.0', ...(typeof model === 'string' ? { model_name: model } : {}) }, steps: kept, final_metrics: final };
  return JSON.stringify(root, null, 2) + '\n';
}
