import { isPlainObject } from '../../message.js';
import { argumentsText } from '../content-parts.js';
import type { Part } from '../model.js';

/**
 * Gemini's `Part`s as parts of a message (the Gemini API's `Content.parts`, which Gemini CLI records too):
 * `text` (a `thought: true` one is reasoning), `functionCall`, `functionResponse`, `inlineData`, `fileData`,
 * `executableCode` and `codeExecutionResult`. Anything else is kept as an unknown part, never dropped.
 */
export function geminiParts(content: unknown): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }];
  const list = Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
  return list.flatMap((p): Part[] => {
    if (typeof p === 'string') return [{ kind: 'text', text: p }];
    if (!isPlainObject(p)) return [{ kind: 'unknown', type: typeof p, text: JSON.stringify(p) ?? String(p) }];
    if (typeof p.text === 'string') return [p.thought === true ? { kind: 'reasoning', text: p.text } : { kind: 'text', text: p.text }];
    if (isPlainObject(p.functionCall)) {
      const c = p.functionCall;
      return [{ kind: 'tool-call', id: typeof c.id === 'string' ? c.id : undefined, name: String(c.name ?? ''), arguments: argumentsText(c.args ?? {}) }];
    }
    if (isPlainObject(p.functionResponse)) {
      const r = p.functionResponse;
      return [{ kind: 'tool-result', callId: typeof r.id === 'string' ? r.id : undefined, text: responseText(r.response), isError: isPlainObject(r.response) && r.response.error !== undefined ? true : undefined }];
    }
    if (isPlainObject(p.inlineData)) return [{ kind: 'image', ref: `inline ${String(p.inlineData.mimeType ?? 'data')}`, mediaType: typeof p.inlineData.mimeType === 'string' ? p.inlineData.mimeType : undefined }];
    if (isPlainObject(p.fileData)) return [{ kind: 'file', ref: String(p.fileData.fileUri ?? ''), mediaType: typeof p.fileData.mimeType === 'string' ? p.fileData.mimeType : undefined }];
    if (isPlainObject(p.executableCode)) return [{ kind: 'text', text: String(p.executableCode.code ?? '') }];
    if (isPlainObject(p.codeExecutionResult)) return [{ kind: 'tool-result', text: String(p.codeExecutionResult.output ?? '') }];
    return [{ kind: 'unknown', type: Object.keys(p)[0] ?? 'part', text: JSON.stringify(p) }];
  });
}

/** A function response's readable text: its `output` (what Gemini CLI's tools answer with), else its JSON. */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (isPlainObject(response)) {
    if (typeof response.output === 'string') return response.output;
    if (typeof response.error === 'string') return response.error;
  }
  return JSON.stringify(response ?? null);
}
