/**
 * A reasoning summary as a one-line preview reads it. Codex writes each summary as Markdown with its heading in
 * bold ("**Adjusting search to include hidden files**"); a preview is plain text, so the stars went on screen.
 * Only paired `**` around text are taken off: a lone star (a glob, `a**b`) stays as written.
 */
export function plainSummary(text: string): string {
  return text.includes('**') ? text.replace(/\*\*(?=\S)([^*\n]*?\S)\*\*/g, '$1') : text;
}
