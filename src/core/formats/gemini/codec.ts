import { isPlainObject } from '../../message.js';
import { argumentsObject, argumentsText } from '../content-parts.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { normalizeRole, type MessageView, type Part } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument } from '../shared/json-document.js';
import { geminiParts, responseText } from './parts.js';
import { geminiAside, isProjectHash, sessionFolder } from './project.js';

/**
 * A Gemini CLI session (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.json`): `{sessionId, projectHash,
 * startTime, lastUpdated, messages}`, each message `{id, timestamp, type, content}`; a `gemini` message carries
 * its `thoughts`, its `toolCalls` (each with the call's `args` and its `result` parts, run before the next
 * model turn) and the call's `tokens`. `info`, `error` and `warning` are the CLI's own notices. Content is a
 * string in older files, Gemini `Part`s in newer ones. The `.jsonl` session files hold the same message
 * records (jsonl-codec.ts).
 */
export function geminiSessionView(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  const type = typeof r.type === 'string' ? r.type : '?';
  const parts: Part[] = [];
  if (Array.isArray(r.thoughts)) {
    for (const t of r.thoughts) if (isPlainObject(t)) parts.push({ kind: 'reasoning', text: [t.subject, t.description].filter((s) => typeof s === 'string' && s !== '').join(': ') });
  }
  for (const p of geminiParts(r.content)) parts.push(p);
  if (Array.isArray(r.toolCalls)) {
    for (const c of r.toolCalls) {
      if (!isPlainObject(c)) continue;
      const id = typeof c.id === 'string' ? c.id : undefined;
      parts.push({ kind: 'tool-call', id, name: String(c.name ?? ''), arguments: argumentsText(c.args ?? {}) });
      const results = geminiParts(c.result).filter((p) => p.kind === 'tool-result');
      const text = results.length > 0 ? results.map((p) => (p as { text: string }).text).join('\n') : typeof c.resultDisplay === 'string' ? c.resultDisplay : c.result !== undefined && c.result !== null ? responseText(c.result) : undefined;
      if (text !== undefined) parts.push({ kind: 'tool-result', callId: id, text, isError: c.status === 'error' || c.status === 'cancelled' || undefined });
    }
  }
  const t = isPlainObject(r.tokens) ? r.tokens : undefined;
  const n = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return {
    role: type,
    normalRole: type === 'gemini' ? 'assistant' : type === 'user' ? 'user' : normalizeRole('other'),
    parts,
    timestamp: typeof r.timestamp === 'string' ? r.timestamp : undefined,
    id: typeof r.id === 'string' ? r.id : undefined,
    meta: type === 'info' || type === 'error' || type === 'warning' || undefined,
    model: typeof r.model === 'string' ? r.model : undefined,
    // Gemini's promptTokenCount holds the cached tokens; thoughts are written beside the candidates.
    usage: t ? { input: n(t.input), output: (n(t.output) ?? 0) + (n(t.thoughts) ?? 0), cacheRead: n(t.cached), reasoning: n(t.thoughts), key: typeof r.id === 'string' ? r.id : undefined } : undefined,
  };
}

export const geminiCliSession: Codec = {
  id: 'gemini-cli',
  label: 'Gemini CLI session (JSON)',
  tool: 'Gemini CLI',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: false, timestamps: true, toolParts: 'turn' },
  sniffNeeds: ['sessionId', 'messages'],
  sniff: (head) => (/"sessionId"\s*:/.test(head) && /"projectHash"\s*:/.test(head) ? 50 : /"messages"\s*:\s*\[/.test(head) && /"type"\s*:\s*"gemini"/.test(head) ? 40 : 0),
  parse(text, file) {
    return parseJsonDocument(text, file, 'gemini-cli', (root, f, at) => {
      if (!isPlainObject(root) || !Array.isArray(root.messages)) throw new NotThisFormat('expected a Gemini CLI session: {"sessionId", "messages": […]}');
      if (typeof root.sessionId !== 'string' && typeof root.projectHash !== 'string' && !root.messages.some((m) => isPlainObject(m) && m.type === 'gemini')) throw new NotThisFormat('expected a Gemini CLI session');
      root.messages.forEach((m, i) => {
        if (!isPlainObject(m) || typeof m.type !== 'string') throw new ConversationFileError(f, `message ${i} has no "type" (Gemini CLI writes user, gemini, info, error or warning)`, at(['messages', i]));
      });
      const cwd = sessionFolder(root.projectHash, root.directories, root.messages);
      const projectHash = typeof root.projectHash === 'string' && isProjectHash(root.projectHash) ? root.projectHash : undefined;
      const meta = { ...(cwd ? { cwd } : {}), ...(projectHash ? { projectHash } : {}) };
      return { conversations: [{ records: root.messages, ...(cwd || projectHash ? { meta } : {}) }], paths: [root.messages.map((_, i) => ['messages', i])] };
    });
  },
  serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => ({ ...(isPlainObject(root) ? root : {}), messages: (conversations[0] ?? []).slice() })),
  aside: (file, _doc, _c, read) => geminiAside(file, read),
  view: geminiSessionView,
  fromView(v, near) {
    const timestamp = v.timestamp ?? new Date().toISOString();
    const id = v.id ?? crypto.randomUUID();
    const text = v.parts.filter((p) => p.kind === 'text' || p.kind === 'unknown').map((p) => (p as { text: string }).text).join('\n');
    if (v.normalRole !== 'assistant' && v.normalRole !== 'tool') return { id, timestamp, type: v.normalRole === 'user' ? 'user' : 'info', content: text };
    const out: Record<string, unknown> = { id, timestamp, type: 'gemini', content: text };
    const thoughts = v.parts.filter((p) => p.kind === 'reasoning' && !p.encrypted);
    if (thoughts.length > 0) out.thoughts = thoughts.map((p) => ({ subject: '', description: (p as { text: string }).text, timestamp }));
    const results = new Map(v.parts.flatMap((p) => (p.kind === 'tool-result' ? [[p.callId ?? '', p] as const] : [])));
    const calls = v.parts.filter((p) => p.kind === 'tool-call');
    if (calls.length > 0) {
      out.toolCalls = calls.map((c, k) => {
        const args = argumentsObject(c.arguments);
        const callId = c.id ?? `${c.name}-${Date.now()}-${k}`;
        const result = results.get(c.id ?? '');
        return { id: callId, name: c.name, args, ...(result ? { result: [{ functionResponse: { id: callId, name: c.name, response: { output: result.text } } }], status: result.isError ? 'error' : 'success' } : { status: 'success' }), timestamp };
      });
    }
    if (isPlainObject(near) && typeof near.model === 'string') out.model = near.model;
    return out;
  },
  loses: (v) => [
    ...(v.parts.some((p) => p.kind === 'reasoning' && p.encrypted) ? ['encrypted reasoning (a session keeps thought summaries only)'] : []),
    ...(v.normalRole === 'tool' ? ['a tool result of its own (Gemini CLI keeps each result with its call, in the model turn)'] : []),
  ],
  withText(record, text) {
    if (!isPlainObject(record)) return undefined;
    if (typeof record.content === 'string') return { ...record, content: text };
    if (Array.isArray(record.content)) {
      const texts = record.content.filter((p) => isPlainObject(p) && typeof p.text === 'string' && p.thought !== true);
      if (texts.length !== 1) return undefined;
      return { ...record, content: record.content.map((p) => (p === texts[0] ? { ...(p as object), text } : p)) };
    }
    return undefined;
  },
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
