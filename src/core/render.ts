import { contentText, type Message } from './message.js';

/** One block of the rendered history: `[timestamp] role: content`. */
export function renderBlock(message: Message): string {
  const prefix = message.timestamp ? `[${String(message.timestamp)}] ` : '';
  return `${prefix}${message.role}: ${contentText(message.content)}`;
}

/** The rendered history: blocks separated by a blank line. */
export function renderHistory(messages: readonly Message[]): string {
  return messages.map(renderBlock).join('\n\n');
}

/** `role: content` without timestamp, as used by the final-message and export helpers. */
export function roleContentLine(message: Message): string {
  return `${message.role}: ${contentText(message.content)}`;
}

/** Length in code points; positions in trimming rules are code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
