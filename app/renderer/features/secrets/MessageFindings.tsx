import type { Finding } from '../../../shared/contract.js';
import { useAppPick } from '../../store/index.js';

/** One line per text found (a key read from a file is often in the result and in the tool's own copy of it). */
function grouped(found: readonly Finding[]): Array<{ first: Finding; fields: string[]; count: number }> {
  const by = new Map<string, { first: Finding; fields: string[]; count: number }>();
  for (const f of found) {
    const g = by.get(f.key);
    if (!g) by.set(f.key, { first: f, fields: [f.field], count: 1 });
    else {
      g.count++;
      if (!g.fields.includes(f.field)) g.fields.push(f.field);
    }
  }
  return [...by.values()];
}

/**
 * What was found in the message shown: each text found, its rule, where and a masked excerpt; a false positive
 * is dismissed (kept in the state folder for this file), the rest redacted here as one undoable edit.
 */
export function MessageFindings({ index }: { index: number }) {
  const { findings, skeleton, dismissFindings, redactFindings } = useAppPick('findings', 'skeleton', 'dismissFindings', 'redactFindings');
  const found = findings && skeleton && findings.path === skeleton.path && findings.conversation === skeleton.conversation ? findings.byRow.get(index) : undefined;
  if (!found || found.length === 0) return null;
  // A user name in a path is replaced when shared, not in place (the session's cwd is where its tool resumes it).
  const open = found.filter((f) => !f.dismissed && f.kind !== 'path');
  const editable = skeleton?.readOnly?.edits !== false;
  return (
    <section className="findings" aria-label="Secrets and personal details found" data-testid="message-findings">
      <strong>{open.length > 0 ? `${open.length} found in this message, outlined below` : found.some((f) => f.kind === 'path' && !f.dismissed) ? 'User names in paths (a share replaces them by <user>)' : 'All found in this message dismissed'}</strong>{' '}
      {open.length > 0 && editable && (
        <button className="link" onClick={() => void redactFindings([index])} data-testid="redact-message" title="Replace each by [REDACTED:rule], as one edit you can undo; nothing is written until you save">
          Redact {open.length === 1 ? 'it' : 'them'}
        </button>
      )}
      <ul>
        {grouped(found).map(({ first: f, fields, count }) => (
          <li key={f.key} className={f.dismissed ? 'dismissed' : ''} data-testid="finding" data-rule={f.rule}>
            <span className={`secret-chip ${f.kind}`}>{f.kind === 'secret' ? 'secret' : f.kind === 'path' ? 'path' : 'personal'}</span>
            <span>{f.label}</span>
            <span className="excerpt">{f.excerpt}</span>
            <span className="muted small where" title={fields.join(', ')}>
              {count > 1 ? `${count} times, ` : ''}in {fields.join(', ')}
            </span>
            <button className="link small" onClick={() => void dismissFindings([f.key], !f.dismissed)} data-testid={f.dismissed ? 'undismiss-finding' : 'dismiss-finding'} title={f.dismissed ? 'Treat it as found again' : `${f.kind === 'secret' ? 'Not a secret' : 'Fine to share'}: no longer marked, listed or redacted anywhere in this file (kept for this file in the state folder)`}>
              {f.dismissed ? 'dismissed · bring back' : f.kind === 'secret' ? 'not a secret' : 'fine to share'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
