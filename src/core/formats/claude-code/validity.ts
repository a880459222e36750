import { isPlainObject } from '../../message.js';
import type { ConversationDocument } from '../codec.js';
import type { JsonlRecordsBaseline } from '../shared/jsonl-document.js';
import type { Problem } from '../validity.js';
import { chainProblems } from './chain.js';

const SESSION_FIELDS = ['sessionId', 'cwd', 'version'] as const;

/** A session Claude Code can resume: the chain whole, tool results after their calls, every line of a session. */
export function claudeCodeProblems(doc: ConversationDocument): Problem[] {
  const b = doc.baseline as JsonlRecordsBaseline;
  const values = b.lines.lines.map((l) => l.value);
  const recordAt = new Map<number, number>();
  b.slots.forEach((line, k) => recordAt.set(line, k));
  const at = (line: number) => ({ conversation: 0, line, message: recordAt.get(line - 1) });
  const problems: Problem[] = chainProblems(values).map((p) => ({ ...at(p.line), text: p.text }));
  values.forEach((v, i) => {
    if (!isPlainObject(v) || (v.type !== 'user' && v.type !== 'assistant')) return;
    const missing = SESSION_FIELDS.filter((k) => typeof v[k] !== 'string');
    if (missing.length > 0) problems.push({ ...at(i + 1), text: `the line has no ${missing.join(', ')}: Claude Code does not take it for a line of a session` });
  });
  return problems;
}
