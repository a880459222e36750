import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { type MessageView } from '../model.js';
import type { Problem } from '../validity.js';
import { jsonRawText, parseJsonDocument, replaceAt, serializeJsonDocument } from '../shared/json-document.js';
import { geminiParts } from './parts.js';
import { folderOfHash, geminiAside, namingStrings } from './project.js';
import { basename, dirname } from 'node:path';

/**
 * A Gemini API history: a list of `Content` (`{role: "user" | "model", parts: [...]}`, as `chat.getHistory()`
 * gives and Gemini CLI's `/chat save` writes), or a request body `{contents: [...], systemInstruction}`. A
 * `functionResponse` part answers the call of the turn before; a `thought` part is the model's reasoning.
 */
function view(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  const role = typeof r.role === 'string' ? r.role : 'user';
  const parts = geminiParts(r.parts);
  const results = parts.length > 0 && parts.every((p) => p.kind === 'tool-result');
  return {
    role,
    normalRole: role === 'model' ? 'assistant' : role === 'system' ? 'system' : results || role === 'function' || role === 'tool' ? 'tool' : 'user',
    parts,
  };
}

/** Gemini CLI's `/chat save` writes a checkpoint into the project's folder, `tmp/<project hash>/checkpoint-<tag>.json`. */
const isCheckpoint = (file: string) => /^checkpoint-.*\.json$/i.test(basename(file));

/** The folder a checkpoint's project is, where its history names it (the working directory the CLI told the model, a tool's argument). */
function checkpointFolder(file: string, list: readonly unknown[]): string | undefined {
  if (!isCheckpoint(file)) return undefined;
  return folderOfHash(basename(dirname(file)), (function* () {
    for (const c of list) yield* namingStrings(c);
  })());
}

const listPath = (root: unknown): string[] | undefined => (Array.isArray(root) ? [] : isPlainObject(root) && Array.isArray(root.contents) ? ['contents'] : undefined);

export const geminiContents: Codec = {
  id: 'gemini-contents',
  label: 'Gemini API contents (JSON)',
  tool: 'the Gemini API',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: false, timestamps: false, toolParts: 'calls' },
  sniffNeeds: ['parts'],
  sniff(head) {
    if (!/"parts"\s*:\s*\[/.test(head) || !/"role"\s*:\s*"(user|model)"/.test(head)) return 0;
    return /"contents"\s*:\s*\[/.test(head) ? 45 : head.trimStart().startsWith('[') ? 40 : 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'gemini-contents', (root, f, at) => {
      const path = listPath(root);
      if (!path) throw new NotThisFormat('expected a list of {role, parts} contents or {"contents": […]}');
      const list = (path.length ? (root as Record<string, unknown>).contents : root) as unknown[];
      if (!list.some((c) => isPlainObject(c) && Array.isArray(c.parts))) throw new NotThisFormat('no content has "parts"');
      list.forEach((c, i) => {
        if (!isPlainObject(c) || !Array.isArray(c.parts)) throw new ConversationFileError(f, `content ${i} has no "parts" list (a Gemini Content is {role, parts: […]})`, at([...path, i]));
      });
      const system = isPlainObject(root) && isPlainObject(root.systemInstruction) ? geminiParts(root.systemInstruction.parts) : [];
      const instructions = system.map((p) => ('text' in p ? p.text : '')).join('\n');
      const cwd = checkpointFolder(f, list);
      const meta = { ...(instructions ? { instructions } : {}), ...(cwd ? { cwd } : {}) };
      return { conversations: [{ records: list, ...(instructions || cwd ? { meta } : {}) }], paths: [list.map((_, i) => [...path, i])] };
    });
  },
  serialize(doc, conversations) {
    return serializeJsonDocument(doc, (root) => (Array.isArray(root) ? (conversations[0] ?? []).slice() : replaceAt(root, ['contents'], (conversations[0] ?? []).slice())));
  },
  aside: (file, _doc, _c, read) => (isCheckpoint(file) ? geminiAside(file, read) : undefined),
  view,
  fromView(v) {
    const role = v.normalRole === 'assistant' ? 'model' : 'user';
    const parts = v.parts.flatMap((p): unknown[] => {
      if (p.kind === 'text' || p.kind === 'unknown') return [{ text: p.text }];
      if (p.kind === 'reasoning') return p.encrypted ? [] : [{ text: p.text, thought: true }];
      if (p.kind === 'tool-call') {
        let args: unknown = {};
        try {
          args = JSON.parse(p.arguments || '{}');
        } catch {
          args = { input: p.arguments };
        }
        return [{ functionCall: { ...(p.id ? { id: p.id } : {}), name: p.name, args } }];
      }
      if (p.kind === 'tool-result') return [{ functionResponse: { ...(p.callId ? { id: p.callId } : {}), name: '', response: p.isError ? { error: p.text } : { output: p.text } } }];
      return [];
    });
    return { role, parts: parts.length > 0 ? parts : [{ text: '' }] };
  },
  loses: (v) => [
    ...(v.normalRole === 'system' ? ['the system role (Contents have user and model turns; it becomes a user turn)'] : []),
    ...(v.parts.some((p) => p.kind === 'image' || p.kind === 'file') ? ['images and files'] : []),
    ...(v.parts.some((p) => p.kind === 'reasoning' && p.encrypted) ? ['encrypted reasoning'] : []),
  ],
  withText(record, text) {
    if (!isPlainObject(record) || !Array.isArray(record.parts)) return undefined;
    const texts = record.parts.filter((p) => isPlainObject(p) && typeof p.text === 'string' && p.thought !== true);
    if (texts.length !== 1) return record.parts.length === 0 ? { ...record, parts: [{ text }] } : undefined;
    return { ...record, parts: record.parts.map((p) => (p === texts[0] ? { ...(p as object), text } : p)) };
  },
  validate: (doc) => (doc.conversations[0] ? contentsProblems(doc.conversations[0].records) : []),
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};

/** What the Gemini API refuses in a history: a role other than user or model, a turn with no parts, a response naming no function. */
function contentsProblems(records: readonly unknown[]): Problem[] {
  const problems: Problem[] = [];
  records.forEach((r, message) => {
    if (!isPlainObject(r)) return problems.push({ conversation: 0, message, text: 'the content is not an object' });
    if (r.role !== 'user' && r.role !== 'model' && r.role !== undefined) problems.push({ conversation: 0, message, text: `the role ${JSON.stringify(r.role)} is not user or model` });
    if (!Array.isArray(r.parts) || r.parts.length === 0) problems.push({ conversation: 0, message, text: 'the content has no parts' });
    for (const p of Array.isArray(r.parts) ? r.parts : []) {
      if (isPlainObject(p) && isPlainObject(p.functionResponse) && !p.functionResponse.name) problems.push({ conversation: 0, message, text: 'a function response names no function' });
    }
  });
  return problems;
}

/**
 * A converted history's function responses named after the calls they answer (by id, else in order): the
 * Gemini API matches a response to its call by name, which other formats do not keep on the result.
 */
export function nameFunctionResponses(records: readonly unknown[]): unknown[] {
  const byId = new Map<string, string>();
  const waiting: string[] = [];
  return records.map((r) => {
    if (!isPlainObject(r) || !Array.isArray(r.parts)) return r;
    const parts = r.parts.map((p) => {
      if (isPlainObject(p) && isPlainObject(p.functionCall)) {
        const name = String(p.functionCall.name ?? '');
        if (typeof p.functionCall.id === 'string') byId.set(p.functionCall.id, name);
        waiting.push(name);
        return p;
      }
      if (isPlainObject(p) && isPlainObject(p.functionResponse) && !p.functionResponse.name) {
        const id = p.functionResponse.id;
        const name = (typeof id === 'string' ? byId.get(id) : undefined) ?? waiting[0] ?? '';
        const k = waiting.indexOf(name);
        if (k >= 0) waiting.splice(k, 1);
        return { ...p, functionResponse: { ...p.functionResponse, name } };
      }
      return p;
    });
    return { ...r, parts };
  });
}
