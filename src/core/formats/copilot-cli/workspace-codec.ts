import { basename } from 'node:path';
import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import type { MessageView } from '../model.js';
import { PYYAML_TO_JS, parseYamlText } from '../syntax/yaml-read.js';

/**
 * GitHub Copilot CLI's `workspace.yaml` beside a session's `events.jsonl` (`~/.copilot/session-state/<id>/`):
 * what the session is (its id, name, folder, repository, branch, times), no message of it. Shown as one entry
 * saying so; the conversation is the events.jsonl beside it.
 */
type Workspace = Record<string, unknown>;

const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function view(record: unknown): MessageView {
  const w: Workspace = isPlainObject(record) ? record : {};
  const lines = Object.entries(w)
    .filter(([, v]) => scalar(v) && v !== '' && v !== null)
    .map(([k, v]) => `${k}: ${String(v)}`);
  return {
    role: 'session',
    normalRole: 'other',
    parts: [{ kind: 'text', text: lines.join('\n') }],
    timestamp: text(w.updated_at) ?? text(w.created_at),
    id: text(w.id),
    category: 'session metadata: the conversation is events.jsonl beside it',
    meta: true,
  };
}

export const copilotCliWorkspace: Codec = {
  id: 'copilot-cli-workspace',
  label: 'Copilot CLI session metadata (workspace.yaml)',
  tool: 'GitHub Copilot CLI',
  syntax: 'yaml',
  extensions: ['.yaml'],
  readOnly: 'Copilot CLI keeps here what a session is (its name, folder, branch): read, not edited (the conversation is events.jsonl beside it)',
  companion: true,
  capabilities: { conversations: 'one', toolCalls: false, reasoning: false, otherRecords: false, timestamps: true },
  sniff(head, name) {
    if (basename(name) !== 'workspace.yaml') return 0;
    return /^id:\s*\S/m.test(head) && /^(cwd|git_root|created_at):/m.test(head) ? 70 : 0;
  },
  parse(source, file) {
    const root = parseYamlText(source, file).toJS(PYYAML_TO_JS) as unknown;
    if (!isPlainObject(root) || typeof root.id !== 'string') throw new NotThisFormat('expected Copilot CLI’s workspace.yaml: a mapping with "id", "cwd", "created_at"');
    const title = text(root.name) ?? text(root.summary);
    const meta = { sessionId: root.id, ...(text(root.cwd) ? { cwd: root.cwd as string } : {}), ...(text(root.branch) ? { gitBranch: root.branch as string } : {}) };
    return { codec: 'copilot-cli-workspace', conversations: [{ records: [root], title, meta }], otherRecords: 0, text: source, baseline: undefined };
  },
  sessionName: (r) => (isPlainObject(r) && typeof r.id === 'string' && text(r.name) ? { sessionId: r.id, name: r.name as string } : undefined),
  serialize: (doc) => doc.text,
  view,
  fromView: (v) => ({ id: v.id ?? '', name: v.parts.flatMap((x) => (x.kind === 'text' ? [x.text] : [])).join(' ') }),
  loses: () => ['everything: Copilot CLI’s workspace.yaml is read-only here'],
  withText: () => undefined,
  rawText: (doc) => doc.text,
};
