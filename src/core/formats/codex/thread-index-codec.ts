import { isPlainObject } from '../../message.js';
import type { MessageView } from '../model.js';
import { storeCodec } from '../shared/store-codec.js';

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** Codex wrote seconds, later milliseconds beside them (`created_at_ms`): the finer one where there is one. */
function time(ms: unknown, s: unknown): string | undefined {
  if (typeof ms === 'number' && Number.isFinite(ms) && ms > 0) return new Date(ms).toISOString();
  if (typeof s === 'number' && Number.isFinite(s) && s > 0) return new Date(s < 1e11 ? s * 1000 : s).toISOString();
  return undefined;
}

/** A `threads` row as what it says: where the session's rollout is, where it ran, when, on what, and how much. */
function view(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  const created = time(r.created_at_ms, r.created_at);
  const updated = time(r.updated_at_ms, r.updated_at);
  const lines = [
    `rollout: ${str(r.rollout_path) ?? '(none recorded)'}`,
    str(r.cwd) && `cwd: ${r.cwd as string}`,
    created && `created: ${created}`,
    updated && updated !== created && `updated: ${updated}`,
    (str(r.model) || str(r.model_provider)) && `model: ${[str(r.model), str(r.model_provider) && `(${r.model_provider as string})`].filter(Boolean).join(' ')}`,
    typeof r.tokens_used === 'number' && `tokens used: ${r.tokens_used}`,
    str(r.source) && `source: ${r.source as string}`,
    str(r.parent_thread_id) && `parent thread: ${r.parent_thread_id as string}`,
    str(r.git_branch) && `git: ${[r.git_branch, str(r.git_sha)?.slice(0, 12)].filter(Boolean).join(' @ ')}`,
    r.archived === 1 && 'archived',
    str(r.first_user_message) && `first prompt: ${r.first_user_message as string}`,
  ].filter((l): l is string => typeof l === 'string');
  return {
    role: 'thread',
    normalRole: 'other',
    parts: [{ kind: 'text', text: lines.join('\n') }],
    timestamp: updated ?? created,
    id: str(r.id),
    category: 'index entry: the session is its rollout file',
    meta: true,
    ...(str(r.model) ? { model: r.model as string } : {}),
  };
}

/**
 * Codex's thread index (`state_5.sqlite`, see containers/codex-state.ts): a conversation per thread holding its
 * index row. Read-only: Codex's own database, and not the sessions, which are their rollouts.
 */
export const codexThreadIndex = storeCodec({
  id: 'codex-thread-index',
  label: 'Codex thread index (state_5.sqlite)',
  tool: 'Codex',
  store: 'codex-state',
  readOnly: 'Codex’s own index of its threads (it may be writing it now): each thread’s session is its rollout file, which opens and edits as any session',
  view,
  capabilities: { toolCalls: false, reasoning: false, otherRecords: false, timestamps: true },
});
