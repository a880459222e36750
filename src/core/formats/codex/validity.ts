import { isPlainObject } from '../../message.js';
import type { ConversationDocument } from '../codec.js';
import type { JsonlRecordsBaseline } from '../shared/jsonl-document.js';
import type { Problem } from '../validity.js';
import { isLegacyHeader, itemOf } from './legacy.js';

const CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

/**
 * A rollout Codex can resume: `session_meta` first (a legacy rollout's own first line, for the versions that
 * wrote one), every call answered by its output, every output after its call.
 */
export function codexProblems(doc: ConversationDocument): Problem[] {
  const b = doc.baseline as JsonlRecordsBaseline;
  const lines = b.lines.lines;
  const recordAt = new Map<number, number>();
  b.slots.forEach((line, k) => recordAt.set(line, k));
  const at = (i: number) => ({ conversation: 0, line: i + 1, message: recordAt.get(i) });
  const problems: Problem[] = [];
  const first = lines.findIndex((l) => l.value !== undefined);
  const v0 = first === -1 ? undefined : lines[first].value;
  if (first !== -1 && !(isPlainObject(v0) && v0.type === 'session_meta') && !isLegacyHeader(v0)) problems.push({ ...at(first), text: 'the first line is not the session_meta Codex starts a rollout with: it cannot resume it' });
  const open = new Map<string, number>();
  lines.forEach((l, i) => {
    const v = l.value;
    const p = isPlainObject(v) && v.type !== 'event_msg' && v.type !== 'turn_context' ? itemOf(v) : undefined;
    if (!p) return;
    const id = typeof p.call_id === 'string' ? p.call_id : undefined;
    if (typeof p.type !== 'string') return;
    if (CALLS.has(p.type) && id !== undefined && p.type !== 'local_shell_call') open.set(id, i);
    if (OUTPUTS.has(p.type)) {
      if (id === undefined || !open.has(id)) problems.push({ ...at(i), text: `an output for ${id ?? '(no call_id)'} has no call before it` });
      else open.delete(id);
    }
  });
  for (const [id, i] of open) problems.push({ ...at(i), text: `the call ${id} has no output after it` });
  return problems;
}
