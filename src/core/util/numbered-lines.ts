/** Lines looked at for their numbers: a row's preview shows no more of a result than these. */
const LOOKED_AT = 60;

/**
 * A file's lines as a tool read them out, numbered ("     1→…" in Claude Code 1.x, "1\t…" in 2.x, "<file>" then
 * "     1|…" in Crush): their text without the numbers (and Crush's opening tag), which in a one-line preview ran
 * into it ("1 package models 2 3 import"). Only a run of two or more lines numbered one after another from the
 * first line counts; past it (a reminder the tool added, say) and past the first lines, the text is as it was.
 * Undefined for any other text.
 */
export function withoutLineNumbers(text: string): string | undefined {
  const tagged = text.startsWith('<file>\n') ? '<file>\n'.length : 0;
  let at = tagged;
  let expected: number | undefined;
  const out: string[] = [];
  while (at <= text.length && out.length < LOOKED_AT) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end === -1 ? text.length : end);
    const m = (tagged ? /^ *(\d{1,7})\|/ : /^ *(\d{1,7})(?:→|\t)/).exec(line);
    if (!m || (expected !== undefined && Number(m[1]) !== expected)) break;
    expected = Number(m[1]) + 1;
    out.push(line.slice(m[0].length));
    if (end === -1) {
      at = text.length + 1;
      break;
    }
    at = end + 1;
  }
  if (out.length < 2) return undefined;
  return at > text.length ? out.join('\n') : `${out.join('\n')}\n${text.slice(at)}`;
}
