import { getEncodingNameForModel, type TiktokenModel } from 'js-tiktoken/lite';

export const ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2'] as const;
export type EncodingName = (typeof ENCODINGS)[number];

export interface EncodingChoice {
  /** What the user asked for (a model name or an encoding name). */
  model: string;
  encoding: EncodingName;
  /** True when the model is not an OpenAI model, so the count is an o200k_base estimate. */
  approximate: boolean;
}

const O200K_PREFIXES = ['gpt-5', 'gpt-4.1', 'gpt-4o', 'o1', 'o3', 'o4', 'chatgpt-4o', 'gpt-oss'];
const CL100K_PREFIXES = ['gpt-4', 'gpt-3.5', 'text-embedding-3', 'text-embedding-ada-002'];

export function isEncodingName(name: string): name is EncodingName {
  return (ENCODINGS as readonly string[]).includes(name);
}

/** Model to encoding: js-tiktoken's exact map, then prefix rules, then an approximate o200k_base. */
export function resolveEncoding(modelOrEncoding: string): EncodingChoice {
  const model = modelOrEncoding.trim();
  if (isEncodingName(model)) return { model, encoding: model, approximate: false };
  // A provider's route to a model names it last (openrouter/openai/gpt-4o-mini, azure/gpt-4o), as Aider and LiteLLM write it.
  const bare = model.slice(model.lastIndexOf('/') + 1);
  try {
    const encoding = getEncodingNameForModel(bare as TiktokenModel);
    return { model, encoding, approximate: false };
  } catch {
    // not in the exact map: fall through to the prefix rules
  }
  const lower = bare.toLowerCase();
  // Longer prefixes first so gpt-4o and gpt-4.1 win over gpt-4.
  if (O200K_PREFIXES.some((p) => lower.startsWith(p))) return { model, encoding: 'o200k_base', approximate: false };
  if (CL100K_PREFIXES.some((p) => lower.startsWith(p))) return { model, encoding: 'cl100k_base', approximate: false };
  return { model, encoding: 'o200k_base', approximate: true };
}

/** Families of other providers' models, counted approximately on purpose (anything else is likely a typo). */
const OTHER_FAMILIES = ['claude', 'gemini', 'gemma', 'llama', 'mistral', 'mixtral', 'codestral', 'qwen', 'deepseek', 'grok', 'command', 'phi', 'kimi', 'glm', 'yi-', 'olmo', 'nemotron', 'granite'];

/** Whether a name is an encoding, an OpenAI model, or a model of a known other family. */
export function isKnownModel(modelOrEncoding: string): boolean {
  const choice = resolveEncoding(modelOrEncoding);
  if (!choice.approximate) return true;
  const lower = choice.model.toLowerCase();
  return OTHER_FAMILIES.some((f) => lower.includes(f));
}
