import { isPlainObject } from '../../message.js';
import { firstLine } from '../shared/jsonl-document.js';
import { logCodec } from '../shared/prompt-log-codec.js';

/**
 * OpenCode's prompt history (`~/.local/state/opencode/prompt-history.jsonl`): one line a prompt as typed,
 * `{input, parts, mode}` (`mode` "shell" for a `!` command), what its up arrow recalls; no session, no time.
 * One conversation of the user's messages, in the order typed.
 */
interface Prompt {
  input: string;
  parts?: unknown[];
  mode?: string;
}

const isPrompt = (v: unknown): v is Prompt => isPlainObject(v) && typeof v.input === 'string' && !('role' in v) && ('mode' in v || Array.isArray(v.parts));

export const openCodePromptHistory = logCodec<Prompt>({
  id: 'opencode-prompt-history',
  label: 'OpenCode prompt history (prompt-history.jsonl)',
  tool: 'OpenCode',
  readOnly: 'OpenCode keeps here the prompts typed, for its up arrow: read and searched, not edited (the sessions are in its storage)',
  syntax: 'jsonl',
  sniffNeeds: ['input'],
  sniff(head, name) {
    const line = firstLine(head);
    if (!/^\s*\{\s*"input"\s*:\s*"/.test(line) || !/"(mode|parts)"\s*:/.test(line)) return 0;
    return /(^|[\\/])prompt-history\.jsonl$/i.test(name) ? 60 : 35;
  },
  isEntry: isPrompt,
  expected: 'OpenCode’s prompt-history.jsonl: one {"input", "parts", "mode"} a line',
  groupOf: () => '',
  titleOf: () => 'OpenCode prompts',
  view: (p) => ({
    role: 'user',
    normalRole: 'user',
    parts: p.input !== '' ? [{ kind: 'text', text: p.input }] : [],
    ...(p.mode === 'shell' ? { category: 'shell command' } : {}),
  }),
  fromView: (v) => ({ input: v.parts.flatMap((x) => (x.kind === 'text' ? [x.text] : [])).join('\n'), parts: [], mode: 'normal' }),
});
