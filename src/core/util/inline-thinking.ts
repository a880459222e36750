/**
 * Reasoning a model wrote into its answer's text between `<think>` tags (DeepSeek-R1, Qwen and others served as
 * plain chat models; Crush and Open WebUI keep it so): the text after the tags is the answer. A block never closed
 * (the answer cut off while the model still thought) is reasoning to the end.
 */
const OPENS = /^\s*<(think|thinking)>/i;

export function inlineThinking(text: string): { reasoning: string; answer: string } | undefined {
  const open = OPENS.exec(text);
  if (!open) return undefined;
  const from = open[0].length;
  const close = new RegExp(`</${open[1]}>`, 'i').exec(text.slice(from));
  if (!close) return { reasoning: text.slice(from).trim(), answer: '' };
  return { reasoning: text.slice(from, from + close.index).trim(), answer: text.slice(from + close.index + close[0].length).trim() };
}

/** A title a model wrote with its reasoning before it (Crush asks a model for one): the words after it; none when the reasoning never ended. */
export function titleWithoutThinking(title: string): string | undefined {
  const split = inlineThinking(title);
  return split ? split.answer || undefined : title;
}
