import { useAppPick } from '../../store/index.js';
import { distinctFindings } from '../../store/secrets.js';
import { formatNumber } from '../roles.js';
import { countsText, findingsText } from './SecretChip.js';

/** The toolbar's filter: how many secrets and personal data the conversation shown holds; pressed, only those rows. */
export function SecretsToggle() {
  const { findings, skeleton, scanning, secretsOnly, setSecretsOnly, findingsError } = useAppPick('findings', 'skeleton', 'scanning', 'secretsOnly', 'setSecretsOnly', 'findingsError');
  const found = findings && skeleton && findings.path === skeleton.path && findings.conversation === skeleton.conversation ? findings : undefined;
  if (findingsError) return <span className="muted small" title={findingsError} data-testid="secrets-error">secrets not looked for</span>;
  if (!found) return scanning ? <span className="muted small" data-testid="secrets-scanning">looking for secrets…</span> : null;
  const paths = found.paths > 0 ? <PathsNote paths={found.paths} /> : null;
  if (found.open === 0) return paths;
  const open = distinctFindings(found.list.filter((f) => !f.dismissed && f.kind !== 'path'));
  const secrets = open.filter((f) => f.kind === 'secret').length;
  const secret = secrets > 0;
  return (
    <>
      {/* Before the filter: the filter stays the toolbar's last, so nothing before it moves when the scan ends. */}
      {paths}
      <button
        className={`chip-toggle secrets ${secret ? '' : 'personal'} ${secretsOnly ? 'on' : ''}`}
        aria-pressed={secretsOnly}
        onClick={() => setSecretsOnly(!secretsOnly)}
        data-testid="secrets-filter"
        title={`${findingsText(open)} in ${formatNumber(found.rows.size)} message${found.rows.size === 1 ? '' : 's'}: ${secretsOnly ? 'show every message' : 'show only those messages'}`}
      >
        {[secrets > 0 ? `${formatNumber(secrets)} secret${secrets === 1 ? '' : 's'}` : '', found.open - secrets > 0 ? `${formatNumber(found.open - secrets)} personal` : ''].filter(Boolean).join(' · ')}
        {found.truncated ? '+' : ''}
      </button>
    </>
  );
}

/** User names in paths: their own class, said apart from secrets and personal data (no row is marked for them). */
function PathsNote({ paths }: { paths: number }) {
  return (
    <span className="muted small" data-testid="paths-found" title="User names in home folder paths (/home/…, /Users/…, C:\Users\…) and USER/USERNAME values: a share replaces each by <user> unless you keep them; the detail pane lists them">
      {formatNumber(paths)} user name{paths === 1 ? '' : 's'} in paths
    </span>
  );
}

/** With the filter on: what was found, and what can be done about it (redact in place, or share redacted). */
export function SecretsBanner() {
  const { findings, skeleton, secretsOnly, setSecretsOnly, redactFindings, setShare, secretsNote } = useAppPick('findings', 'skeleton', 'secretsOnly', 'setSecretsOnly', 'redactFindings', 'setShare', 'secretsNote');
  const found = findings && skeleton && findings.path === skeleton.path && findings.conversation === skeleton.conversation ? findings : undefined;
  if (!found || ((!secretsOnly || found.open === 0) && !secretsNote)) return null;
  if (!secretsOnly || found.open === 0)
    return (
      <p className="banner" role="status" data-testid="secrets-note">
        {secretsNote}
      </p>
    );
  const secrets = distinctFindings(found.list.filter((f) => !f.dismissed && f.kind === 'secret')).length;
  const personal = found.open - secrets;
  const editable = skeleton?.readOnly?.edits !== false;
  return (
    <p className="banner warn" role="status" data-testid="secrets-banner">
      <span>
        {countsText(secrets, personal)} in {formatNumber(found.rows.size)} message{found.rows.size === 1 ? '' : 's'}
        {found.elsewhere > 0 ? `, ${formatNumber(found.elsewhere)} more in records of the file that are not messages (an export leaves those out)` : ''}
        {found.dismissed > 0 ? `; ${formatNumber(found.dismissed)} dismissed` : ''}.
        {secretsNote && ` ${secretsNote}`}
      </span>
      {editable && (
        <button onClick={() => void redactFindings()} data-testid="redact-all" title="Replace each by [REDACTED:rule] in the file's own format, as one edit you can undo; nothing is written until you save">
          Redact all in place
        </button>
      )}
      <button onClick={() => setShare('conversation')} data-testid="share-redacted">Share redacted…</button>
      <button className="link" onClick={() => setSecretsOnly(false)}>Show every message</button>
    </p>
  );
}
