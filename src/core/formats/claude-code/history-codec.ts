import { isPlainObject } from '../../message.js';
import type { Part } from '../model.js';
import { firstLine } from '../shared/jsonl-document.js';
import { isoTime, logCodec } from '../shared/prompt-log-codec.js';

/**
 * Claude Code's prompt history (`~/.claude/history.jsonl`): one line a prompt as typed, `{display,
 * pastedContents, timestamp, project}` (`timestamp` in milliseconds), appended by every session, what its up
 * arrow recalls. A pasted text stands in `display` as "[Pasted text #1 …]", its words in `pastedContents`. The
 * prompts of one project are a conversation of the user's messages alone (the replies are in the sessions).
 */
interface Prompt {
  display: string;
  timestamp?: number;
  project?: string;
  pastedContents?: Record<string, unknown>;
}

const isPrompt = (v: unknown): v is Prompt => isPlainObject(v) && typeof v.display === 'string' && !('type' in v) && ('timestamp' in v || 'project' in v);

/** What was pasted beside the typed words: texts as they were pasted, an image by its name. */
function pasted(p: Prompt): Part[] {
  if (!isPlainObject(p.pastedContents)) return [];
  return Object.values(p.pastedContents).flatMap((c): Part[] => {
    if (!isPlainObject(c)) return [];
    if (typeof c.content === 'string' && c.type !== 'image') return c.content === '' ? [] : [{ kind: 'text', text: c.content }];
    if (c.type === 'image') return [{ kind: 'image', ref: `pasted image #${String(c.id ?? '')}`, ...(typeof c.mediaType === 'string' ? { mediaType: c.mediaType } : {}) }];
    return [];
  });
}

export const claudeCodeHistory = logCodec<Prompt>({
  id: 'claude-code-history',
  label: 'Claude Code prompt history (history.jsonl)',
  tool: 'Claude Code',
  readOnly: 'Claude Code keeps here every prompt typed, of every project, for its up arrow: read and searched, not edited (a session’s own file is its .jsonl under projects/)',
  syntax: 'jsonl',
  sniffNeeds: ['display'],
  sniff(head, name) {
    const line = firstLine(head);
    if (!/^\s*\{\s*"display"\s*:\s*"/.test(line) || !/"(timestamp|project)"\s*:/.test(line)) return 0;
    return /(^|[\\/])history\.jsonl$/i.test(name) ? 60 : 40;
  },
  isEntry: isPrompt,
  expected: 'Claude Code’s history.jsonl: one {"display", "pastedContents", "timestamp", "project"} a line',
  groupOf: (p) => (typeof p.project === 'string' ? p.project : ''),
  metaOf: (project) => (project ? { cwd: project } : undefined),
  titleOf: (project) => (project ? `prompts in ${project}` : 'prompts'),
  view: (p) => ({
    role: 'user',
    normalRole: 'user',
    parts: [...(p.display !== '' ? [{ kind: 'text' as const, text: p.display }] : []), ...pasted(p)],
    timestamp: isoTime(p.timestamp),
  }),
  fromView: (v) => ({ display: v.parts.flatMap((x) => (x.kind === 'text' ? [x.text] : [])).join('\n'), pastedContents: {}, timestamp: Date.parse(v.timestamp ?? '') || Date.now(), project: '' }),
});
