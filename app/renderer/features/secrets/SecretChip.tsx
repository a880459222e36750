import type { Finding } from '../../../shared/contract.js';
import { distinctFindings } from '../../store/secrets.js';

/** What a list of findings is, in a few words ("GitHub token, 2 × e-mail address"). */
export function findingsText(findings: readonly Finding[]): string {
  const by = new Map<string, number>();
  for (const f of findings) by.set(f.label, (by.get(f.label) ?? 0) + 1);
  return [...by].map(([label, n]) => (n > 1 ? `${n} × ${label}` : label)).join(', ');
}

/** A row's mark: it holds secrets (a key, a token, a password) or, less alarming, personal details. */
export function SecretChip({ findings }: { findings: readonly Finding[] }) {
  const each = distinctFindings(findings);
  const secrets = each.filter((f) => f.kind === 'secret').length;
  const personal = each.length - secrets;
  return (
    <span className={`secret-chip ${secrets > 0 ? 'secret' : 'personal'}`} title={`${findingsText(each)}: the detail pane marks each, to dismiss or redact`} data-testid="secret-chip">
      {secrets > 0 ? `${secrets} secret${secrets === 1 ? '' : 's'}${personal > 0 ? ` +${personal}` : ''}` : `${personal} personal`}
    </span>
  );
}

/** How many secrets and personal details, in words. */
export function countsText(secrets: number, personal: number): string {
  const parts = [];
  if (secrets > 0) parts.push(`${secrets.toLocaleString('en-US')} secret${secrets === 1 ? '' : 's'}`);
  if (personal > 0) parts.push(`${personal.toLocaleString('en-US')} personal detail${personal === 1 ? '' : 's'}`);
  return parts.join(' and ');
}
