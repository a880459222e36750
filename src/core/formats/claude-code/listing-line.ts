const MESSAGE = Buffer.from('"message":{');
const CONTENT = Buffer.from('"content":[');
const CONTENT_END = Buffer.from('],"stop_reason":');
/** How far after `"message":{` its content starts (id, type, role and model come first, in any order). */
const HEADER_BYTES = 2048;

/**
 * An assistant line without its message's content (the bulk of it: text, thinking, tool calls, a whole file a
 * tool writes), for the listing (src/core/catalog/quick-read.ts), which needs its usage, model, ids and times
 * alone. Claude Code writes the message's content before `stop_reason` and its usage after; raw `"content":[`
 * and `],"stop_reason":` can only be JSON's own (quotes inside strings are escaped). Undefined for a line not
 * laid out so: it is read whole.
 */
export function slimAssistantLine(line: Buffer): string | undefined {
  const m = line.indexOf(MESSAGE);
  if (m === -1) return undefined;
  const c = line.indexOf(CONTENT, m);
  if (c === -1 || c - m > HEADER_BYTES) return undefined;
  const open = c + CONTENT.length;
  const close = line.lastIndexOf(CONTENT_END);
  if (close < open) return undefined;
  return line.toString('utf8', 0, open) + line.toString('utf8', close);
}
