import { useMemo, type ReactNode } from 'react';
import { resultHeadline } from '../../../../src/core/formats/result-text.js';
import type { MessageViewData } from '../../../shared/contract.js';
import { termMatches } from '../../../../src/core/search/snippet.js';
import { queryTerms } from '../../../../src/core/search/words.js';
import { Highlight } from '../highlight.js';
import { formatNumber } from '../roles.js';
import { useFolds } from './folds.js';
import { Markdown } from './Markdown.js';
import { ownPairs } from '../own-results.js';

type Part = MessageViewData['parts'][number];

/** Whether the search found words of its query in a text (a folded part holding them opens). */
export function found(text: string, query: string): boolean {
  if (query === '') return false;
  const terms = queryTerms(query);
  return terms.length > 0 && termMatches(text, terms, 1).length > 0;
}

const lines = (s: string) => (s === '' ? 0 : s.split('\n').length);

/** A fold's toggle: a button saying what is folded and how much, its state to assistive technology too. */
function FoldHead({ open, onToggle, children, className = '', testid, label }: { open: boolean; onToggle(): void; children: ReactNode; className?: string; testid?: string; label: string }) {
  return (
    <button className={`tx-fold-head ${className}`} aria-expanded={open} onClick={onToggle} data-testid={testid} title={`${open ? 'Fold' : 'Unfold'} ${label}`}>
      <span className="tx-caret" aria-hidden="true">
        {open ? '▾' : '▸'}
      </span>
      {children}
    </button>
  );
}

/** Arguments as a reader wants them: a flat object as its keys and values (a command, a path, a patch), else indented JSON. */
export function PrettyArguments({ text, query }: { text: string; query: string }) {
  const parsed = useMemo(() => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }, [text]);
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const entries = Object.entries(parsed as Record<string, unknown>);
    if (entries.length === 0) return <p className="muted small">(no arguments)</p>;
    return (
      <dl className="tx-args">
        {entries.map(([k, v]) => {
          // A short list or object on its line (["cargo", "test"]); a long one laid out.
          const flat = typeof v === 'string' ? v : JSON.stringify(v);
          const value = typeof v === 'string' || flat.length <= 120 ? flat : JSON.stringify(v, null, 2);
          const block = value.includes('\n') || value.length > 160;
          return (
            <div key={k} className="tx-arg">
              <dt>{k}</dt>
              <dd>{block ? <pre className="tx-pre">{<Highlight text={value} query={query} />}</pre> : <code><Highlight text={value} query={query} /></code>}</dd>
            </div>
          );
        })}
      </dl>
    );
  }
  const shown = parsed === undefined ? text : JSON.stringify(parsed, null, 2);
  return (
    <pre className="tx-pre">
      <Highlight text={shown} query={query} />
    </pre>
  );
}

/** The argument a call is best known by (a command, a file, a pattern): said in its head, so folded calls still read. */
export function headline(args: string): string | undefined {
  try {
    const o = JSON.parse(args) as Record<string, unknown>;
    if (!o || typeof o !== 'object') return undefined;
    for (const k of ['description', 'command', 'file_path', 'path', 'pattern', 'url', 'query', 'prompt', 'cmd']) {
      const v = o[k];
      if (typeof v === 'string' && v.trim()) return v.trim().split('\n')[0].slice(0, 160);
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(' ').slice(0, 160);
    }
  } catch {
    // Not JSON: the arguments are shown as they are.
  }
  return undefined;
}

const ARGS_FOLD_LINES = 14;

/** `answered`: its result is in the same message, shown right after it (nothing to link to). */
function ToolCall({ part, at, query, foldKey, result, onGo, links, answered }: { part: Extract<Part, { kind: 'tool-call' }>; at: number; query: string; foldKey: string; result?: number; onGo(i: number): void; links: boolean; answered: boolean }) {
  const folds = useFolds();
  const long = lines(part.arguments) > ARGS_FOLD_LINES || part.arguments.length > 1600;
  const byDefault = !long || found(part.arguments, query);
  const open = folds.isOpen(foldKey, byDefault);
  const head = headline(part.arguments);
  return (
    <div className="tx-card tx-call" data-testid="tx-tool-call">
      <div className="tx-card-head">
        <span aria-hidden="true">⚙</span> <strong className="mono">{part.name ? <Highlight text={part.name} query={query} /> : '(unnamed tool)'}</strong>
        {head && <span className="tx-headline mono">{<Highlight text={head} query={query} />}</span>}
        <span className="spacer" />
        {answered ? null : result !== undefined ? (
          <button className="link small" onClick={() => onGo(result)} data-testid="tx-go-result" title={`Its result is message ${result}`}>
            result ↓ #{result}
          </button>
        ) : part.id && links ? (
          <span className="muted small" data-testid="tx-no-result">no result in this thread</span>
        ) : null}
      </div>
      {long ? (
        <>
          <FoldHead open={open} onToggle={() => folds.toggle(foldKey, byDefault)} label={`the arguments of ${part.name} in message ${at}`} testid="tx-args-fold">
            <span className="muted small">arguments · {formatNumber(lines(part.arguments))} {lines(part.arguments) === 1 ? 'line' : 'lines'}</span>
          </FoldHead>
          {open && <PrettyArguments text={part.arguments} query={query} />}
        </>
      ) : (
        <PrettyArguments text={part.arguments} query={query} />
      )}
    </div>
  );
}

/** What a folded result's head shows of it: its first line (a JSON result's output or content, where it has one). */
function firstLine(text: string): string {
  return resultHeadline(text).trim().split('\n')[0]?.slice(0, 200) ?? '';
}

function ToolResult({ part, at, query, foldKey, callName, call, onGo }: { part: Extract<Part, { kind: 'tool-result' }>; at: number; query: string; foldKey: string; callName?: string; call?: number; onGo(i: number): void }) {
  const folds = useFolds();
  const byDefault = found(part.text, query);
  const open = folds.isOpen(foldKey, byDefault);
  const failed = part.isError === true;
  const first = useMemo(() => firstLine(part.text), [part.text]);
  const body = useMemo(() => {
    if (!open) return '';
    try {
      const v = JSON.parse(part.text) as unknown;
      return typeof v === 'object' && v !== null ? JSON.stringify(v, null, 2) : part.text;
    } catch {
      return part.text;
    }
  }, [open, part.text]);
  return (
    <div className={`tx-card tx-result ${failed ? 'error' : ''}`} data-testid="tx-tool-result" data-error={failed || undefined}>
      <div className="tx-card-head">
        <FoldHead open={open} onToggle={() => folds.toggle(foldKey, byDefault)} label={`the result${callName ? ` of ${callName}` : ''} in message ${at}`} testid="tx-result-fold">
          <span aria-hidden="true">↩</span> <strong>{callName ? `${callName} result` : 'Result'}</strong>
          {failed && <span className="tx-error-chip" data-testid="tx-error">error</span>}
          <span className="muted small">
            {' '}
            · {formatNumber(lines(part.text))} line{lines(part.text) === 1 ? '' : 's'}
          </span>
          {!open && first && <span className="tx-headline mono">{<Highlight text={first} query={query} />}</span>}
        </FoldHead>
        <span className="spacer" />
        {call !== undefined && (
          <button className="link small" onClick={() => onGo(call)} data-testid="tx-go-call" title={`Its call is message ${call}`}>
            call ↑ #{call}
          </button>
        )}
      </div>
      {open && (
        <pre className="tx-pre" data-testid="tx-result-body">
          {part.text === '' ? <span className="muted">(empty)</span> : <Highlight text={body} query={query} />}
        </pre>
      )}
    </div>
  );
}

/** Reasoning that can be read: not encrypted, not a bare signature, kept, not blank. */
const readableReasoning = (p: Part): boolean => p.kind === 'reasoning' && !p.encrypted && !p.signature && !p.unkept && p.text.trim() !== '';

/**
 * What a folded thought's head shows of it: its subject (Gemini CLI's, before its description's colon; a
 * **bold** first line), else the start of its first line.
 */
export function subjectOf(text: string): string {
  const line = (text.trim().split('\n')[0] ?? '').replace(/^\*\*(.+)\*\*$/, '$1');
  const colon = line.indexOf(': ');
  if (colon > 0 && colon <= 80) return line.slice(0, colon);
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}

function Reasoning({ part, at, query, foldKey, tokens, of }: { part: Extract<Part, { kind: 'reasoning' }>; at: number; query: string; foldKey: string; tokens?: number; /** Its place among the message's readable thoughts, where there are several (the tokens count them all). */ of?: { n: number; count: number } }) {
  const folds = useFolds();
  if (part.encrypted || part.signature) {
    return (
      <p className="tx-reasoning muted small" data-testid="tx-reasoning">
        ∴ Reasoning, encrypted by the provider ({formatNumber(part.text.length)} characters): not readable, not counted
      </p>
    );
  }
  // Claude Code keeps only the signature of thinking it was not given to show: said so, not an empty fold.
  if (part.unkept) {
    return (
      <p className="tx-reasoning muted small" data-testid="tx-reasoning">
        ∴ Reasoning not kept in the file (only its signature is)
      </p>
    );
  }
  const byDefault = found(part.text, query);
  const open = folds.isOpen(foldKey, byDefault);
  return (
    <div className="tx-reasoning" data-testid="tx-reasoning">
      <FoldHead open={open} onToggle={() => folds.toggle(foldKey, byDefault)} label={`the reasoning of message ${at}`} testid="tx-reasoning-fold">
        <span aria-hidden="true">∴</span> Reasoning{of ? ` ${of.n} of ${of.count}` : ''}
        <span className="muted small" data-testid="tx-reasoning-size">
          {' · '}
          {tokens !== undefined && !of
            ? `${formatNumber(tokens)} tokens, counted apart`
            : `${formatNumber(part.text.length)} characters${tokens !== undefined && of?.n === 1 ? ` · ${formatNumber(tokens)} tokens in all ${of.count}, counted apart` : ''}`}
        </span>
        {!open && <span className="tx-headline">{<Highlight text={subjectOf(part.text)} query={query} />}</span>}
      </FoldHead>
      {open && (
        <div className="tx-reasoning-body">
          <Markdown text={part.text} query={query} />
        </div>
      )}
    </div>
  );
}

export interface PartsContext {
  /** Message `at`'s number, for fold keys and names. */
  at: number;
  query: string;
  /** The message answering a call, by call id; the message making one. */
  resultOf(id: string | undefined): number | undefined;
  callOf(id: string | undefined): number | undefined;
  /** The name of the call a result answers, when its message is at hand. */
  callName(id: string | undefined): string | undefined;
  onGo(i: number): void;
  reasoningTokens?: number;
  /** Whether calls and results link to each other's messages (not inside a sub-agent shown in place). */
  links?: boolean;
  /** A prefix for fold keys of a message shown inside another (a sub-agent's). */
  keyPrefix?: string;
}

/** A message's parts as the transcript shows them: text as Markdown, calls as cards, results and reasoning folded. */
export function TranscriptParts({ parts, ctx, tool, empty }: { parts: Part[]; ctx: PartsContext; tool: boolean; /** Why it is empty, where its reader says (Crush: a reply that never came). */ empty?: string }) {
  if (parts.length === 0 || parts.every((p) => (p.kind === 'text' || (p.kind === 'reasoning' && !p.unkept)) && p.text.trim() === '')) {
    return (
      <p className="muted tx-empty" data-testid="tx-empty">
        ({empty ?? 'empty'})
      </p>
    );
  }
  const key = (k: number) => `${ctx.keyPrefix ?? ''}${ctx.at}:p${k}`;
  const own = ownPairs(parts);
  const thoughts = parts.filter(readableReasoning).length;
  let thought = 0;
  return (
    <>
      {parts.map((p, k) => {
        switch (p.kind) {
          case 'text':
            // A tool's message with plain text is its output: folded like any result.
            return tool ? (
              <ToolResult key={k} part={{ kind: 'tool-result', text: p.text }} at={ctx.at} query={ctx.query} foldKey={key(k)} onGo={ctx.onGo} />
            ) : p.text.trim() === '' ? null : (
              <Markdown key={k} text={p.text} query={ctx.query} />
            );
          case 'tool-call':
            return <ToolCall key={k} part={p} at={ctx.at} query={ctx.query} foldKey={key(k)} result={ctx.resultOf(p.id)} onGo={ctx.onGo} links={ctx.links !== false} answered={p.id !== undefined && own.answered.has(p.id)} />;
          case 'tool-result':
            return <ToolResult key={k} part={p} at={ctx.at} query={ctx.query} foldKey={key(k)} callName={ctx.callName(p.callId)} call={p.callId !== undefined && own.called.has(p.callId) ? undefined : ctx.callOf(p.callId)} onGo={ctx.onGo} />;
          case 'reasoning':
            return <Reasoning key={k} part={p} at={ctx.at} query={ctx.query} foldKey={key(k)} tokens={ctx.reasoningTokens} of={thoughts > 1 && readableReasoning(p) ? { n: ++thought, count: thoughts } : undefined} />;
          case 'image':
          case 'file':
            return (
              <p key={k} className="tx-attachment muted" data-testid="tx-attachment">
                {p.kind === 'image' ? '[image' : '[file'}
                {p.mediaType ? `, ${p.mediaType}` : ''}: <span className="mono">{p.ref.startsWith('data:') ? 'inline data, not shown' : p.ref}</span>] (not loaded)
              </p>
            );
          default:
            return (
              <UnknownPart key={k} part={p} at={ctx.at} query={ctx.query} foldKey={key(k)} />
            );
        }
      })}
    </>
  );
}

function UnknownPart({ part, at, query, foldKey }: { part: Extract<Part, { kind: 'unknown' }>; at: number; query: string; foldKey: string }) {
  const folds = useFolds();
  const byDefault = found(part.text, query);
  const open = folds.isOpen(foldKey, byDefault);
  return (
    <div className="tx-card tx-unknown">
      <FoldHead open={open} onToggle={() => folds.toggle(foldKey, byDefault)} label={`the ${part.type} part of message ${at}`}>
        <strong>{part.type}</strong> <span className="muted small">a part this reader does not know; kept as it is</span>
      </FoldHead>
      {open && (
        <pre className="tx-pre">
          <Highlight text={part.text} query={query} />
        </pre>
      )}
    </div>
  );
}

/** Every fold key a message's parts have (Enter opens them all). */
export function foldKeys(parts: Part[], at: number, keyPrefix = ''): string[] {
  return parts.map((_, k) => `${keyPrefix}${at}:p${k}`);
}
