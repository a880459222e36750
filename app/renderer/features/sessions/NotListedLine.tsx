import { notListedLines, notListedText, notListedTotal } from '../../../../src/core/catalog/not-listed-words.js';
import type { NotListed } from '../../../shared/contract.js';
import { useApp } from '../../store/index.js';
import { formatNumber } from '../roles.js';

/**
 * One quiet line under the session list, when the opened folders hold files it does not show (another tool's
 * database, a prompt log, a file that does not read): what they are, each file named on hover, and the way to
 * them (the Files list, where each says why). Nothing when there are none.
 */
export function NotListedLine({ notListed }: { notListed: NotListed | undefined }) {
  const setSidebarMode = useApp((s) => s.setSidebarMode);
  const setFileOnly = useApp((s) => s.setFileOnly);
  const text = notListed && notListedText(notListed);
  if (!notListed || !text) return null;
  const total = notListedTotal(notListed);
  const names = notListedLines(notListed);
  const title = `Files under the opened folders that this list does not show:\n${names.join('\n')}${total > names.length ? `\n… and ${formatNumber(total - names.length)} more` : ''}`;
  return (
    <p className="muted session-not-listed" data-testid="session-not-listed" title={title}>
      {text} —{' '}
      <button
        className="link"
        data-testid="not-listed-files"
        onClick={() => {
          setFileOnly({ paths: notListed.files.map((f) => f.path), more: total - notListed.files.length });
          setSidebarMode('files');
        }}
        title="The Files list, narrowed to these files: each says why it is not read"
      >
        open {total === 1 ? 'it' : 'them'} in Files
      </button>
    </p>
  );
}
