/**
 * What Claude Code records of a command typed at its prompt, as tags in a user message's text: a slash command
 * (`<command-name>/model</command-name>`, its `<command-message>` and `<command-args>`), what a command the tool
 * answered itself printed (`<local-command-stdout>`), a shell command typed after `!` (`<bash-input>`) and its
 * output. A one-line preview reads them as the user typed and saw them, not as tags.
 */
const TAGS = 'command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr';
const STARTS = new RegExp(`^\\s*<(${TAGS})>`);
const ANY_TAG = new RegExp(`</?(${TAGS})>`, 'g');

/**
 * The slash command a message typed, with its arguments ("/review 42"), and whether the model was sent it:
 * Claude Code writes such a prompt's message first ("init is analyzing your codebase…"), a command it answers
 * itself (`/help`, `/model`) by its name first.
 */
export function slashCommandIn(text: string): { command: string; sent: boolean } | undefined {
  const name = /^\s*(<command-message>[^<]*<\/command-message>\s*)?<command-name>\s*\/?([^<\s]+)\s*<\/command-name>/.exec(text);
  if (!name) return undefined;
  const args = /<command-args>([^<]*)<\/command-args>/.exec(text)?.[1];
  return { command: `/${name[2]}${args?.trim() ? ` ${args.trim()}` : ''}`, sent: name[1] !== undefined };
}

/** The text of a message made of these tags as the user met it ("/model", "! ls", the output); undefined for any other text. */
export function localCommandText(text: string): string | undefined {
  if (!STARTS.test(text)) return undefined;
  const typed = slashCommandIn(text);
  if (typed) return typed.command;
  const shell = /^\s*<bash-input>([\s\S]*?)<\/bash-input>/.exec(text);
  if (shell) return `! ${shell[1].trim()}`;
  return text.replace(ANY_TAG, ' ').trim();
}
