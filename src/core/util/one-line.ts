/** A cut text without the first half of an astral character left at its end. */
function withoutLoneHalf(cut: string): string {
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** What a JavaScript regex's `\s` matches, by code: the line's separators as the table and the CLI fold them. */
function isSpace(c: number): boolean {
  if (c > 0x20 && c < 0xa0) return false;
  return (
    c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/**
 * A text on one line, as `text.replace(/\s+/g, ' ').trim()` cut to `max` characters with "…" — but reading
 * only as far as the cut: a preview of a 10 MB message costs what a preview of a short one does. The cut never
 * parts the two halves of an astral character (an emoji, 𝔘): a lone half is no character, and shows as �.
 */
export function oneLine(text: string, max: number): string {
  let out = '';
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      space = out.length > 0;
      continue;
    }
    if (space) {
      out += ' ';
      space = false;
    }
    out += text[i];
    if (out.length > max) return withoutLoneHalf(out.slice(0, max - 1)) + '…';
  }
  return out;
}

/** `text.replace(/\s+/g, ' ').trim().slice(0, max)`, reading only as far as that needs (a whole prompt can be 200 MB). */
export function foldedStart(text: string, max: number): string {
  const flat = oneLine(text, max + 1);
  return flat.length > max ? flat.slice(0, max) : flat;
}
