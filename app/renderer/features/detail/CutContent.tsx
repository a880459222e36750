import type { RequestOutput } from '../../../shared/contract.js';
import type { WindowPlan } from '../../../../src/core/window/types.js';
import { formatNumber } from '../roles.js';

type Exact = RequestOutput<'window:cut'>;

/**
 * A cut message with what the model does not see dimmed: the exact cut (made on the text, in the document
 * service) once it has come, in the text it is made in (for the dynamic window, the message's block of the
 * rendered history, header included); the renderer's estimate until then, marked so.
 */
export function CutContent({ estimate, text, length, exact }: { estimate: WindowPlan['cuts'][number]; text: string; length: number; exact: Exact | undefined }) {
  if (exact && exact.fate !== 'cut') {
    return (
      <>
        <p className="cut-note" data-testid="cut-note">
          Planned with the exact text, this message is {exact.fate}, not cut (the estimate from counts put the cut here).
        </p>
        <pre className="content" data-testid="detail-content">{text}</pre>
      </>
    );
  }
  const shown = exact?.cut ?? { text, basis: 'content' as const, keep: estimate.keep, offset: estimate.offset };
  const where = shown.basis === 'rendered' ? 'its block of the rendered history ([time] role: content)' : 'its content';
  const kept = shown.keep === 'start' ? `the first ${formatNumber(shown.offset)}` : `everything from character ${formatNumber(shown.offset)}`;
  // The dynamic window can cut inside the block's "[time] role: " header: then all of the content is sent.
  const header = shown.basis === 'rendered' && shown.text.endsWith(text) ? shown.text.length - text.length : 0;
  const inHeader = header > 0 && shown.keep === 'end' && shown.offset <= header;
  return (
    <>
      <p className="cut-note" data-testid="cut-note" data-exact={exact ? 'true' : 'false'} data-in-header={inHeader || undefined}>
        {inHeader ? (
          <>
            ✂ Under this strategy the cut falls in this message&apos;s <code>[time] role:</code> header: the model is sent its last {formatNumber(header - shown.offset)} of {formatNumber(header)} characters, then all of the content. The dimmed part is what the model does not see.
          </>
        ) : (
          <>
            ✂ Under this strategy the message is cut: the model is sent {kept} of the {formatNumber(exact ? shown.text.length : length)} characters of {where}
            {exact ? '' : ' (estimated from counts; the exact cut is on its way)'}. The dimmed part is what the model does not see.
          </>
        )}
      </p>
      <pre className="content" data-testid="detail-content">
        {shown.keep === 'start' ? (
          <>
            <span data-testid="cut-kept">{shown.text.slice(0, shown.offset)}</span>
            <span className="cut-away" data-testid="cut-away">{shown.text.slice(shown.offset)}</span>
          </>
        ) : (
          <>
            <span className="cut-away" data-testid="cut-away">{shown.text.slice(0, shown.offset)}</span>
            <span data-testid="cut-kept">{shown.text.slice(shown.offset)}</span>
          </>
        )}
      </pre>
    </>
  );
}
