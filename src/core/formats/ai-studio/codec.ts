import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { sentText, type MessageView, type Part } from '../model.js';
import { jsonRawText, parseJsonDocument, replaceAt, serializeJsonDocument } from '../shared/json-document.js';

type Node = Record<string, unknown>;

/**
 * A Google AI Studio prompt, as AI Studio saves it in Drive ("Google AI Studio" folder; no extension there,
 * `.json` when downloaded): `{runSettings: {model, temperature, …}, systemInstruction: {parts: [{text}]} (or
 * `{text}`, or `{}`), chunkedPrompt: {chunks: […], pendingInputs: […]}}`. The records are the chunks: `role`
 * `user` or `model`, `text`, `tokenCount`, `finishReason`; a chunk with `isThought` is the model's thinking
 * (shown as reasoning); a chunk may be an attachment (`driveImage`, `driveDocument`, `driveVideo`: a Drive file
 * id; `inlineImage`, `inlineData`: the bytes) and may carry the answer's streamed `parts` too. The system
 * instruction is the conversation's instructions (kept, not a message); `pendingInputs` (an unsent draft) are
 * the file's other records.
 */
const ATTACHMENTS: Record<string, 'image' | 'file'> = { driveImage: 'image', inlineImage: 'image', driveDocument: 'file', driveVideo: 'file', driveAudio: 'file', inlineData: 'file', inlineFile: 'file', youtubeVideo: 'file' };

/** The model a file's chunks were answered by (runSettings.model), per chunk as read. */
const modelOf = new WeakMap<object, string>();

function instructionsOf(s: unknown): string | undefined {
  if (typeof s === 'string') return s.trim() ? s : undefined;
  if (!isPlainObject(s)) return undefined;
  if (typeof s.text === 'string') return s.text.trim() ? s.text : undefined;
  const texts = Array.isArray(s.parts) ? s.parts.filter((p) => isPlainObject(p) && typeof p.text === 'string').map((p) => (p as { text: string }).text) : [];
  const joined = texts.join('\n');
  return joined.trim() ? joined : undefined;
}

function attachmentParts(chunk: Node): Part[] {
  const out: Part[] = [];
  for (const [key, kind] of Object.entries(ATTACHMENTS)) {
    const a = chunk[key];
    if (!isPlainObject(a)) continue;
    const mediaType = typeof a.mimeType === 'string' ? a.mimeType : undefined;
    const ref = [a.id, a.url, a.uri, a.name].find((x): x is string => typeof x === 'string' && x !== '') ?? (key.startsWith('inline') ? `${key} (inline)` : key);
    out.push({ kind, ref: key.startsWith('drive') && typeof a.id === 'string' ? `drive:${a.id}` : ref, ...(mediaType ? { mediaType } : {}) });
  }
  return out;
}

/** The chunk's text: `text`, else its parts' texts (a thought's thinking, an answer's). */
function chunkText(c: Node): string {
  if (typeof c.text === 'string') return c.text;
  const parts = Array.isArray(c.parts) ? c.parts.filter((p) => isPlainObject(p) && typeof p.text === 'string') : [];
  return parts.map((p) => (p as { text: string }).text).join('');
}

function view(record: unknown): MessageView {
  const c = isPlainObject(record) ? record : {};
  const role = typeof c.role === 'string' ? c.role : '?';
  const text = chunkText(c);
  const parts: Part[] = [];
  if (text !== '') parts.push(c.isThought === true ? { kind: 'reasoning', text } : { kind: 'text', text });
  for (const p of attachmentParts(c)) parts.push(p);
  if (typeof c.errorMessage === 'string' && c.errorMessage !== '') parts.push({ kind: 'unknown', type: 'error', text: c.errorMessage });
  const v: MessageView = { role, normalRole: role === 'model' ? 'assistant' : role === 'user' ? 'user' : role === 'system' ? 'system' : 'other', parts };
  const model = isPlainObject(record) ? modelOf.get(record) : undefined;
  if (model && role === 'model') v.model = model.replace(/^models\//, '');
  if (typeof c.finishReason === 'string' && c.finishReason !== 'STOP') v.category = c.finishReason;
  return v;
}

export const aiStudioPrompt: Codec = {
  id: 'ai-studio-prompt',
  label: 'Google AI Studio prompt (JSON)',
  tool: 'Google AI Studio',
  syntax: 'json',
  // Drive holds these files without an extension; a listing cannot tell them from any other file, so only a
  // downloaded `.json` (or a file opened with this format named) is read.
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: false, reasoning: true, otherRecords: true, timestamps: false, toolParts: 'one' },
  sniffNeeds: ['chunkedPrompt', 'runSettings'],
  sniff: (head) => (/"chunkedPrompt"\s*:\s*\{/.test(head) ? 60 : /"runSettings"\s*:\s*\{/.test(head) && /"chunks"\s*:\s*\[/.test(head) ? 45 : 0),
  parse(text, file) {
    return parseJsonDocument(text, file, 'ai-studio-prompt', (root, f, at) => {
      if (!isPlainObject(root) || !isPlainObject(root.chunkedPrompt) || !Array.isArray(root.chunkedPrompt.chunks)) throw new NotThisFormat('expected a Google AI Studio prompt: {"runSettings", "chunkedPrompt": {"chunks": […]}}');
      const chunks = root.chunkedPrompt.chunks;
      const model = isPlainObject(root.runSettings) && typeof root.runSettings.model === 'string' ? root.runSettings.model : undefined;
      chunks.forEach((c, i) => {
        if (!isPlainObject(c) || typeof c.role !== 'string') throw new ConversationFileError(f, `chunk ${i} has no "role" (AI Studio writes user or model)`, at(['chunkedPrompt', 'chunks', i]));
        if (model) modelOf.set(c, model);
      });
      const pending = Array.isArray(root.chunkedPrompt.pendingInputs) ? root.chunkedPrompt.pendingInputs.filter((p) => isPlainObject(p) && typeof p.text === 'string' && p.text !== '').length : 0;
      const instructions = instructionsOf(root.systemInstruction);
      return { conversations: [{ records: chunks, ...(instructions ? { meta: { instructions } } : {}) }], paths: [chunks.map((_, i) => ['chunkedPrompt', 'chunks', i])], otherRecords: pending };
    });
  },
  serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => replaceAt(root, ['chunkedPrompt', 'chunks'], (conversations[0] ?? []).slice())),
  view,
  fromView(v) {
    const reasoning = v.parts.filter((p) => p.kind === 'reasoning' && !p.encrypted && !p.signature).map((p) => (p as { text: string }).text);
    const text = sentText({ parts: v.parts.filter((p) => p.kind !== 'reasoning') });
    const model = v.normalRole === 'assistant' || v.normalRole === 'tool';
    if (model && text === '' && reasoning.length > 0) return { text: reasoning.join('\n\n'), role: 'model', isThought: true };
    return { text, role: v.normalRole === 'assistant' ? 'model' : 'user' };
  },
  loses(v) {
    const out: string[] = [];
    if (v.normalRole === 'system') out.push('the system role (an AI Studio chunk is the user’s or the model’s; the system instruction is the file’s own): written as the user’s');
    if (v.parts.some((p) => p.kind === 'tool-call' || p.kind === 'tool-result')) out.push('tool calls and results as such (written as the chunk’s text)');
    if (v.parts.some((p) => p.kind === 'image' || p.kind === 'file')) out.push('attachments (AI Studio refers to Drive files by id)');
    if (v.parts.some((p) => p.kind === 'reasoning' && (p.encrypted || p.signature))) out.push('encrypted reasoning');
    if (v.parts.some((p) => p.kind === 'reasoning' && !p.encrypted) && (v.normalRole !== 'assistant' || v.parts.some((p) => p.kind !== 'reasoning'))) out.push('reasoning beside other parts (an AI Studio thought is a chunk of its own)');
    return out;
  },
  withText(record, text) {
    if (!isPlainObject(record)) return undefined;
    // An attachment chunk holds no words to edit.
    if (typeof record.text !== 'string' && attachmentParts(record).length > 0) return undefined;
    const next: Node = { ...record, text };
    // The streamed parts say the same text: kept in step (the first text part's flags, the other parts kept).
    if (Array.isArray(record.parts)) {
      const texts = record.parts.filter((p) => isPlainObject(p) && typeof p.text === 'string') as Node[];
      if (texts.length > 0) next.parts = [{ ...texts[0], text }, ...record.parts.filter((p) => !texts.includes(p as Node))];
    }
    return next;
  },
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
