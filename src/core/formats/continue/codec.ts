import { basename, dirname, join } from 'node:path';
import { isPlainObject } from '../../message.js';
import { argumentsText } from '../content-parts.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { normalizeRole, type MessageView, type Part, type ReportedUsage } from '../model.js';
import { jsonRawText, parseJsonDocument, replaceAt, serializeJsonDocument } from '../shared/json-document.js';
import { sessionDates } from './index-codec.js';

/**
 * A Continue session (`~/.continue/sessions/<sessionId>.json`, written by core/util/history.ts as
 * `JSON.stringify(session)`): `{sessionId, title, workspaceDirectory, history, mode?, chatModelTitle?, usage?}`.
 * Each `history` item is a `ChatHistoryItem`: its `message` (`role` user, assistant, thinking, system or tool;
 * `content` a string or `[{type: "text", text} | {type: "imageUrl", imageUrl: {url}}]`; an assistant's
 * OpenAI-style `toolCalls`, a tool message's `toolCallId`, a thinking message's `signature` /
 * `redactedThinking`, an assistant's `usage`), the `contextItems` the user attached (files, URLs, terminal
 * output… with their `content`) or a tool returned, the GUI's `editorState` (the TipTap document of a user's
 * input), `promptLogs`, `reasoning`, `toolCallStates`.
 *
 * The user's context items are parts of kind `file`, each named by its URI (or its name): they are what the
 * user attached beside the words typed, which Continue keeps apart and renders into the prompt itself, not
 * words of the message (a text part would merge them into the typed text, into an edit and into a conversion's
 * message). Their content is therefore not counted. A tool message's context items are its output, which its
 * `content` already says.
 *
 * `sessions.json` beside the sessions is Continue's index of them (`[{sessionId, title, dateCreated,
 * workspaceDirectory}]`): it is refused in words, never read as a conversation.
 */

type Loose = Record<string, unknown>;

/**
 * The folder a workspace URI names (Continue keeps VS Code's: `file:///c%3A/Users/me/app` is `c:\Users\me\app`,
 * `file:///home/me/app` is `/home/me/app`); a URI of another scheme (a remote's) as it is.
 */
export function folderOfUri(uri: string): string {
  const m = /^file:\/\/([^/]*)(\/.*)$/i.exec(uri);
  if (!m) return uri;
  let path: string;
  try {
    path = decodeURIComponent(m[2]);
  } catch {
    return uri;
  }
  const drive = /^\/([A-Za-z]:)(\/.*)?$/.exec(path);
  if (drive) return `${drive[1]}${(drive[2] ?? '/').replace(/\//g, '\\')}`;
  return m[1] && m[1] !== 'localhost' ? `\\\\${m[1]}${path.replace(/\//g, '\\')}` : path;
}

const isItem = (r: unknown): r is Loose => isPlainObject(r) && isPlainObject(r.message) && typeof r.message.role === 'string';

const isIndexEntry = (e: unknown) => isPlainObject(e) && typeof e.sessionId === 'string' && !('history' in e) && ('dateCreated' in e || 'title' in e);

function contentParts(content: unknown): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return content === undefined || content === null ? [] : [{ kind: 'text', text: JSON.stringify(content) ?? '' }];
  return content.map((p): Part => {
    if (isPlainObject(p) && p.type === 'text' && typeof p.text === 'string') return { kind: 'text', text: p.text };
    if (isPlainObject(p) && p.type === 'imageUrl') {
      const url = isPlainObject(p.imageUrl) && typeof p.imageUrl.url === 'string' ? p.imageUrl.url : '';
      const mediaType = /^data:([^;,]+)/.exec(url)?.[1];
      return { kind: 'image', ref: url.startsWith('data:') ? `${url.slice(0, url.indexOf(',') + 1)}… (${url.length} characters)` : url || 'image', ...(mediaType ? { mediaType } : {}) };
    }
    return { kind: 'unknown', type: isPlainObject(p) && typeof p.type === 'string' ? p.type : typeof p, text: JSON.stringify(p) ?? '' };
  });
}

const contentText = (content: unknown) =>
  contentParts(content)
    .filter((p) => p.kind === 'text')
    .map((p) => (p as { text: string }).text)
    .join('\n');

function usageOf(u: unknown): ReportedUsage | undefined {
  if (!isPlainObject(u)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const prompt = isPlainObject(u.promptTokensDetails) ? u.promptTokensDetails : {};
  const completion = isPlainObject(u.completionTokensDetails) ? u.completionTokensDetails : {};
  const out: ReportedUsage = { input: n(u.promptTokens), output: n(u.completionTokens), cacheRead: n(prompt.cachedTokens), cacheWrite: n(prompt.cacheWriteTokens), reasoning: n(completion.reasoningTokens) };
  for (const k of Object.keys(out) as (keyof ReportedUsage)[]) if (out[k] === undefined) delete out[k];
  return Object.keys(out).length > 0 ? out : undefined;
}

function view(record: unknown): MessageView {
  const item = isPlainObject(record) ? record : {};
  const m = isPlainObject(item.message) ? item.message : {};
  const role = typeof m.role === 'string' ? m.role : '?';
  const parts: Part[] = [];
  if (role === 'thinking') {
    const text = contentText(m.content);
    if (text !== '' || typeof m.signature === 'string') parts.push({ kind: 'reasoning', text, ...(typeof m.signature === 'string' ? { vendor: 'anthropic' as const, signed: m.signature } : {}) });
    if (typeof m.redactedThinking === 'string') parts.push({ kind: 'reasoning', text: m.redactedThinking, encrypted: true, vendor: 'anthropic' });
  } else if (role === 'tool') {
    const items = Array.isArray(item.contextItems) ? item.contextItems.filter(isPlainObject) : [];
    const text = contentText(m.content) || items.map((c) => (typeof c.content === 'string' ? c.content : '')).join('\n');
    parts.push({ kind: 'tool-result', callId: typeof m.toolCallId === 'string' ? m.toolCallId : undefined, text, ...(isPlainObject(item.toolCallState) && item.toolCallState.status === 'errored' ? { isError: true } : {}) });
  } else {
    if (isPlainObject(item.reasoning) && typeof item.reasoning.text === 'string' && item.reasoning.text !== '') parts.push({ kind: 'reasoning', text: item.reasoning.text });
    for (const p of contentParts(m.content)) parts.push(p);
    for (const c of Array.isArray(item.contextItems) ? item.contextItems : []) {
      if (!isPlainObject(c)) continue;
      const uri = isPlainObject(c.uri) && typeof c.uri.value === 'string' ? c.uri.value : undefined;
      parts.push({ kind: 'file', ref: uri ?? (typeof c.name === 'string' ? c.name : 'context item') });
    }
  }
  if (Array.isArray(m.toolCalls)) {
    for (const c of m.toolCalls) {
      if (!isPlainObject(c)) continue;
      const fn = isPlainObject(c.function) ? c.function : {};
      parts.push({ kind: 'tool-call', id: typeof c.id === 'string' ? c.id : undefined, name: String(fn.name ?? ''), arguments: argumentsText(fn.arguments) });
    }
  }
  const logs = Array.isArray(item.promptLogs) ? item.promptLogs.filter(isPlainObject) : [];
  const log = logs[logs.length - 1];
  const options = log && isPlainObject(log.completionOptions) ? log.completionOptions : undefined;
  const model = typeof options?.model === 'string' ? options.model : typeof log?.modelTitle === 'string' ? log.modelTitle : undefined;
  const usage = usageOf(m.usage);
  return {
    role,
    normalRole: role === 'thinking' ? 'assistant' : normalizeRole(role),
    parts,
    ...(typeof m.id === 'string' ? { id: m.id } : {}),
    ...(model ? { model } : {}),
    ...(usage ? { usage: { ...usage, ...(typeof m.id === 'string' ? { key: m.id } : {}) } } : {}),
  };
}

/** The TipTap document Continue's GUI shows a user's message from: a paragraph per line. */
function editorStateOf(text: string): Loose {
  return { type: 'doc', content: text.split('\n').map((line) => ({ type: 'paragraph', content: line === '' ? [] : [{ type: 'text', text: line }] })) };
}

function fromView(v: MessageView): Loose {
  const text = v.parts
    .filter((p) => p.kind === 'text' || p.kind === 'unknown')
    .map((p) => (p as { text: string }).text)
    .join('\n');
  const reasoning = v.parts.filter((p): p is Extract<Part, { kind: 'reasoning' }> => p.kind === 'reasoning' && !p.encrypted && p.text !== '');
  const result = v.parts.find((p) => p.kind === 'tool-result');
  if (v.normalRole === 'tool' || result) {
    return { message: { role: 'tool', content: result?.kind === 'tool-result' ? result.text : text, toolCallId: result?.kind === 'tool-result' ? (result.callId ?? '') : '' }, contextItems: [] };
  }
  if (v.normalRole === 'assistant') {
    // A message that is the model's thinking alone is Continue's own `thinking` message.
    if (v.role === 'thinking' && reasoning.length > 0 && v.parts.every((p) => p.kind === 'reasoning')) {
      const signed = reasoning.find((p) => p.vendor === 'anthropic' && p.signed);
      return { message: { role: 'thinking', content: reasoning.map((p) => p.text).join('\n'), ...(signed ? { signature: signed.signed } : {}) }, contextItems: [] };
    }
    const calls = v.parts.filter((p) => p.kind === 'tool-call');
    const message: Loose = { role: 'assistant', content: text };
    if (calls.length > 0) message.toolCalls = calls.map((c, i) => ({ id: c.id ?? `call_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } }));
    const now = Date.now();
    return { message, contextItems: [], ...(reasoning.length > 0 ? { reasoning: { active: false, text: reasoning.map((p) => p.text).join('\n'), startAt: now, endAt: now } } : {}) };
  }
  const role = v.normalRole === 'system' ? 'system' : 'user';
  return { message: { role, content: text }, contextItems: [], ...(role === 'user' ? { editorState: editorStateOf(text) } : {}) };
}

function withText(record: unknown, text: string): unknown {
  if (!isItem(record)) return undefined;
  const m = record.message as Loose;
  if (m.role === 'thinking') return undefined;
  let content: unknown;
  if (typeof m.content === 'string' || m.content === undefined || m.content === null) content = text;
  else if (Array.isArray(m.content)) {
    const texts = m.content.filter((p) => isPlainObject(p) && p.type === 'text');
    if (texts.length !== 1) return undefined;
    content = m.content.map((p) => (p === texts[0] ? { ...(p as Loose), text } : p));
  } else return undefined;
  // The GUI shows a user's message from its editor state: it says the new text too (mentions become plain text).
  return { ...record, message: { ...m, content }, ...(m.role === 'user' && isPlainObject(record.editorState) ? { editorState: editorStateOf(text) } : {}) };
}

export const continueSession: Codec = {
  id: 'continue-session',
  label: 'Continue session (JSON)',
  tool: 'Continue',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: false, timestamps: false },
  sniffNeeds: ['sessionId', 'message'],
  sniff(head, name) {
    if (basename(name) === 'sessions.json' && /^\s*\[/.test(head) && /"sessionId"\s*:/.test(head)) return 60;
    if (/"sessionId"\s*:/.test(head) && /"history"\s*:\s*\[/.test(head) && (/"workspaceDirectory"\s*:/.test(head) || /"contextItems"\s*:/.test(head))) return 55;
    if (/^\s*\[\s*\{\s*"sessionId"\s*:/.test(head) && /"dateCreated"\s*:/.test(head)) return 40;
    if (/^\s*\[\s*\{\s*"message"\s*:\s*\{\s*"role"\s*:/.test(head) && /"contextItems"\s*:/.test(head)) return 20;
    return 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'continue-session', (root, f, at) => {
      if (Array.isArray(root)) {
        if (root.length > 0 && root.every(isIndexEntry)) {
          throw new ConversationFileError(f, `this is Continue's sessions.json, the index of its sessions (${root.length} of them: title, date and folder of each), not a conversation; each session is its own <sessionId>.json beside it`, undefined, true);
        }
        // A list of history items (what a conversion into this format writes).
        if (!root.every(isItem)) throw new NotThisFormat('expected a Continue session: {"sessionId", "title", "workspaceDirectory", "history": [{"message": {"role", "content"}, "contextItems": […]}]}');
        return { conversations: [{ records: root }], paths: [root.map((_, i) => [i])] };
      }
      if (!isPlainObject(root) || !Array.isArray(root.history) || (typeof root.sessionId !== 'string' && typeof root.workspaceDirectory !== 'string')) {
        throw new NotThisFormat('expected a Continue session: {"sessionId", "title", "workspaceDirectory", "history": [{"message": {"role", "content"}, "contextItems": […]}]}');
      }
      root.history.forEach((h, i) => {
        if (!isItem(h)) throw new ConversationFileError(f, `history[${i}] has no "message" with a "role" (Continue writes {message: {role, content}, contextItems})`, at(['history', i]));
      });
      const title = typeof root.title === 'string' && root.title !== '' ? root.title : undefined;
      const meta = { ...(typeof root.sessionId === 'string' ? { sessionId: root.sessionId } : {}), ...(typeof root.workspaceDirectory === 'string' && root.workspaceDirectory !== '' ? { cwd: folderOfUri(root.workspaceDirectory) } : {}) };
      return { conversations: [{ title, records: root.history, meta }], paths: [root.history.map((_, i) => ['history', i])] };
    });
  },
  serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => (Array.isArray(root) ? (conversations[0] ?? []).slice() : replaceAt(root, ['history'], (conversations[0] ?? []).slice()))),
  // A session keeps no time of its own: its index beside it says when it was made.
  aside(file, doc, conversation, read) {
    const id = doc.conversations[conversation]?.meta?.sessionId;
    const index = id === undefined ? undefined : read(join(dirname(file), 'sessions.json'));
    const startedAt = index === undefined ? undefined : sessionDates(index).get(id!);
    return startedAt ? { startedAt } : undefined;
  },
  view,
  fromView,
  loses: (v) => [
    ...(v.parts.some((p) => p.kind === 'image' || p.kind === 'file') ? ['images and files (a Continue message holds an image’s data and the context items it resolved itself, not references)'] : []),
    ...(v.timestamp ? ['timestamps (a Continue session keeps none per message)'] : []),
    ...(v.parts.some((p) => p.kind === 'reasoning' && p.encrypted) ? ['encrypted reasoning'] : []),
  ],
  withText,
  // The GUI keys a message by its id: a copy gets its own.
  freshIds: (record) => (isItem(record) && typeof (record.message as Loose).id === 'string' ? { ...record, message: { ...(record.message as Loose), id: crypto.randomUUID() } } : record),
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
