import { Highlight } from '../highlight.js';
import { termMatches } from '../../../../src/core/search/snippet.js';
import { queryTerms } from '../../../../src/core/search/words.js';
import type { RequestOutput, Skeleton } from '../../../shared/contract.js';
import { useApp } from '../../store/index.js';
import { PrettyArguments } from '../transcript/TranscriptParts.js';
import { ownPairs } from '../own-results.js';

type View = RequestOutput<'conversation:message'>['view'];
type Part = View['parts'][number];

function pretty(text: string): { text: string; json: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), json: true };
  } catch {
    return { text, json: false };
  }
}

/** Index of the message that answers call `id`, or makes it. */
function resultOf(skeleton: Skeleton, id: string | undefined): number | undefined {
  if (!id) return undefined;
  const k = skeleton.toolResults.values.indexOf(id);
  return k === -1 ? undefined : skeleton.toolResults.at[k];
}
function callOf(skeleton: Skeleton, id: string | undefined): number | undefined {
  if (!id) return undefined;
  const k = skeleton.toolCalls.values.findIndex((ids) => ids.includes(id));
  return k === -1 ? undefined : skeleton.toolCalls.at[k];
}

function Jump({ to, label }: { to: number; label: string }) {
  const select = useApp((s) => s.select);
  return (
    <button className="link" onClick={() => select(to)} data-testid="jump">
      {label} {to}
    </button>
  );
}

/** `headOnly`: a result whose text the pane shows already above (a swarms tool message's content): its card says whose result it is, not the text again. */
/** `own`: the calls and results paired inside the part's message (linked in place, not to another message). */
function PartView({ part, skeleton, query, headOnly = false, own }: { part: Part; skeleton: Skeleton; query: string; headOnly?: boolean; own: ReturnType<typeof ownPairs> }) {
  switch (part.kind) {
    case 'text':
      return <pre className="content part-text" data-testid="detail-content">{part.text ? <Highlight text={part.text} query={query} /> : <span className="muted">(empty)</span>}</pre>;
    case 'tool-call': {
      const here = part.id !== undefined && own.answered.has(part.id);
      const result = here ? undefined : resultOf(skeleton, part.id);
      return (
        <div className="card tool-call" data-testid="tool-call-card">
          <div className="card-head">
            <span aria-hidden="true">⚙</span> <strong className="mono">{part.name ? <Highlight text={part.name} query={query} /> : '(unnamed tool)'}</strong>
            {part.id && <span className="mono muted">{part.id}</span>}
            <span className="spacer" />
            {here ? <span className="muted">result below</span> : result !== undefined ? <Jump to={result} label="result in message" /> : part.id ? <span className="orphan" data-testid="orphan">no result in this conversation</span> : null}
          </div>
          {/* A command, a path, a patch as the reader wants them: a string's lines as lines, not "\n". */}
          <div className="tool-args" data-testid="tool-call-args">
            <PrettyArguments text={part.arguments} query={query} />
          </div>
        </div>
      );
    }
    case 'tool-result': {
      const body = pretty(part.text);
      const here = part.callId !== undefined && own.called.has(part.callId);
      const call = here ? undefined : callOf(skeleton, part.callId);
      const failed = part.isError === true;
      return (
        <div className={`card tool-result ${failed ? 'error' : ''}`} data-testid="tool-result-card">
          <div className="card-head">
            <span aria-hidden="true">↩</span> <strong>Tool result</strong>
            {failed && <span className="badge error">error</span>}
            {part.callId && <span className="mono muted">{part.callId}</span>}
            <span className="spacer" />
            {here ? <span className="muted">call above</span> : call !== undefined ? <Jump to={call} label="call in message" /> : part.callId ? <span className="orphan" data-testid="orphan">its call is not in this conversation</span> : null}
          </div>
          {!headOnly && <pre className={body.json ? 'json' : 'content'}>{body.text ? <Highlight text={body.text} query={query} /> : <span className="muted">(empty)</span>}</pre>}
        </div>
      );
    }
    case 'reasoning': {
      if (part.unkept) return <p className="card reasoning muted" data-testid="reasoning">Reasoning not kept in the file (only its signature is)</p>;
      // Folded, unless the search found the message by words in it: then open, the words marked.
      const found = !part.encrypted && query !== '' && termMatches(part.text, queryTerms(query), 1).length > 0;
      return (
        <details className="card reasoning" data-testid="reasoning" open={found || undefined}>
          <summary>{part.encrypted ? 'Encrypted reasoning (shown as such, not counted)' : 'Reasoning'}</summary>
          {part.encrypted ? (
            <p className="mono muted">{part.text.length.toLocaleString('en-US')} characters of encrypted content</p>
          ) : (
            <pre className="content">
              <Highlight text={part.text} query={query} />
            </pre>
          )}
        </details>
      );
    }
    case 'image':
    case 'file':
      return (
        <p className="card attachment" data-testid="attachment">
          {part.kind === 'image' ? '🖼 image' : '📎 file'}: <span className="mono">{part.ref}</span>
          {part.mediaType ? <span className="muted"> ({part.mediaType})</span> : null}
        </p>
      );
    default:
      return (
        <div className="card unknown">
          <div className="card-head">
            <strong>{part.type}</strong> <span className="muted">(a part this tool does not know; kept as it is)</span>
          </div>
          <pre className="json">{pretty(part.text).text}</pre>
        </div>
      );
  }
}

/** A message of any format as its parts: text, tool calls and results as cards, reasoning folded. */
export function Parts({ view, skeleton, query = '' }: { view: View; skeleton: Skeleton; query?: string }) {
  if (view.parts.length === 0) return <pre className="content" data-testid="detail-content"><span className="muted">(empty)</span></pre>;
  const own = ownPairs(view.parts);
  return (
    <div className="parts">
      {view.parts.map((p, i) => (
        <PartView key={i} part={p} skeleton={skeleton} query={query} own={own} />
      ))}
    </div>
  );
}

/** Tool calls a swarms message carries beside its content (OpenAI `tool_calls`, also under `metadata`). */
export function ToolCallCards({ view, skeleton, query = '', shown }: { view: View; skeleton: Skeleton; query?: string; shown?: string }) {
  const calls = view.parts.filter((p) => p.kind === 'tool-call' || p.kind === 'tool-result');
  if (calls.length === 0) return null;
  // The message's content is its result: shown once, above; the card links it to its call.
  const own = ownPairs(view.parts);
  const same = (p: Part) => p.kind === 'tool-result' && shown !== undefined && p.text.trim() === shown.trim();
  return (
    <div className="parts">
      {calls.map((p, i) => (
        <PartView key={i} part={p} skeleton={skeleton} query={query} headOnly={same(p)} own={own} />
      ))}
    </div>
  );
}
