import { isPlainObject } from '../message.js';
import type { ToolSchema } from './codec.js';

/**
 * Tool declarations in the shapes files keep them: OpenAI's `{type: "function", function: {...}}`, the bare
 * `{name, description, parameters}` of ShareGPT datasets and the legacy `functions`, and Anthropic's
 * `{name, description, input_schema}`.
 */
export function toolSchemas(value: unknown): ToolSchema[] | undefined {
  let list = value;
  if (typeof list === 'string') {
    if (list.trim() === '') return undefined;
    try {
      list = JSON.parse(list) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(list)) return undefined;
  const out: ToolSchema[] = [];
  for (const t of list) {
    const f = isPlainObject(t) && isPlainObject(t.function) ? t.function : t;
    if (!isPlainObject(f) || typeof f.name !== 'string') continue;
    const parameters = f.parameters ?? f.input_schema;
    out.push({ name: f.name, ...(typeof f.description === 'string' ? { description: f.description } : {}), ...(parameters !== undefined ? { parameters } : {}) });
  }
  return out;
}

export const openAiTools = (tools: readonly ToolSchema[]) => tools.map((t) => ({ type: 'function', function: { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.parameters ?? { type: 'object', properties: {} } } }));
export const anthropicTools = (tools: readonly ToolSchema[]) => tools.map((t) => ({ name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), input_schema: t.parameters ?? { type: 'object', properties: {} } }));
export const bareTools = (tools: readonly ToolSchema[]) => tools.map((t) => ({ name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.parameters ?? { type: 'object', properties: {} } }));
