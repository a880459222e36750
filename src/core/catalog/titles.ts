import type { Codec, ConversationDocument } from '../formats/codec.js';
import { displayText } from '../formats/model.js';
import { maskedLine } from '../secrets/mask-line.js';
import { oneLine } from '../util/one-line.js';
import { sharedStart } from '../util/shared-start.js';
import { saysOnlyWhereOrWhen } from '../util/folder-title.js';
import { slashCommandIn } from '../formats/claude-code/local-commands.js';
import { titleWithoutThinking } from '../util/inline-thinking.js';

/** How far a title looks for a first prompt (a session opens with a few records of setup). */
const TITLE_LOOK = 40;

/**
 * A prompt's Markdown as it reads: a link or an image by its words (a title of "[JEPA notes](chatgpt-conversation://…)"
 * says "JEPA notes"), bold without its marks, a heading without its #. Code keeps its backticks (`greet` says it is
 * a name).
 */
export function unmarked(text: string): string {
  // A prompt that opens with the task in a tool's tags (Cline's `<task>…</task>`, context after it) is that task.
  const lead = /^\s*<([a-z][\w-]*)>\s*([^<]*?)\s*<\/\1>/.exec(text);
  return (lead && /[\p{L}\p{N}]/u.test(lead[2]) ? lead[2] : text)
    .replace(/!?\[([^\]\n]*)\]\([^()\s]*(?:\s+"[^"\n]*")?\)/g, '$1')
    .replace(/\*\*([^*\n]+)\*\*/g, '$1')
    // A task a tool wrapped in tags of its own (Gemini CLI's `<question>…</question>`): the words, not the tags.
    .replace(/<([a-z][\w-]*)>\s*([^<]*?)\s*<\/\1>/g, '$2')
    .replace(/^#{1,6}\s+/, '');
}

/** Whether a title says anything: a letter or a digit (a prompt of "." or "…" titles nothing). */
export const saysSomething = (text: string | undefined): text is string => !!text && /[\p{L}\p{N}]/u.test(text);

/** A conversation's first prompt on one line, its secrets masked. */
export function firstPrompt(codec: Codec, records: readonly unknown[]): string | undefined {
  // A sub-agent's own file is all side chain: its first prompt is the task it was given.
  const sideOnly = records.slice(0, TITLE_LOOK).every((r) => codec.view(r).sidechain === true);
  let command: string | undefined;
  let local: string | undefined;
  for (const r of records.slice(0, TITLE_LOOK)) {
    const v = codec.view(r);
    if (v.normalRole !== 'user' || (v.sidechain && !sideOnly) || v.summary) continue;
    // A prompt the tool wrapped in context of its own (the files open in an IDE) is titled by the request in it.
    const raw = codec.requestText?.(v) ?? displayText(v);
    // A slash command as Claude Code records it (`<command-name>/init</command-name>`, often a line of its own
    // marked meta): the command, which titles a session only where no request follows it.
    const typed = commandIn(raw);
    if (typed) {
      // One the model was sent (`/init`) says more than one the tool answered itself (`/help`, `/exit`).
      if (typed.sent) command ??= typed.text;
      else local ??= typed.text;
      continue;
    }
    if (v.meta) continue;
    const text = oneLine(maskedLine(unmarked(oneLine(raw, 400))), 120);
    // A bare punctuation mark (a prompt of ".") says nothing: the next prompt titles the session.
    if (!saysSomething(text)) continue;
    // A command typed at the prompt (Aider's `/add src/x.py`) says less than the request after it.
    if (/^\/[a-z][\w-]*(\s|$)/.test(text)) {
      command ??= text;
      continue;
    }
    return text;
  }
  return command ?? local;
}

/** A slash command as a title reads it ("/init", "/review 42"), and whether the model was sent it. */
function commandIn(text: string): { text: string; sent: boolean } | undefined {
  const typed = slashCommandIn(text);
  return typed && { text: oneLine(maskedLine(typed.command), 120), sent: typed.sent };
}

/** A title the file gives that is a path (Codex names a session by its folder) or when it started says no more. */
const isPath = saysOnlyWhereOrWhen;

/**
 * Each conversation's title: the file's own (not a path), else its first prompt. Titles the tool writes alike
 * ("aider chat started at …" for each of Aider's) tell conversations apart only at their end: their first
 * prompts then, where they have one.
 */
export function conversationTitles(codec: Codec, doc: ConversationDocument): Array<string | undefined> {
  const own = doc.conversations.map((c) => {
    const title = c.title === undefined ? undefined : titleWithoutThinking(c.title);
    return title !== undefined && !isPath(title) ? oneLine(maskedLine(title), 120) : undefined;
  });
  const prompts = doc.conversations.map((c, i) => (own[i] === undefined || doc.conversations.length > 1 ? firstPrompt(codec, c.records) : undefined));
  const titles = own.map((t, i) => t ?? prompts[i]);
  if (doc.conversations.length > 1 && sharedStart(titles.map((t, i) => t ?? `conversation ${i + 1}`)) > 0) return titles.map((t, i) => prompts[i] ?? t);
  return titles;
}
