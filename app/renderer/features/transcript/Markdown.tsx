import { createElement, memo, useState, type ReactNode } from 'react';
import type { Token } from 'markdown-it';
import { Highlight } from '../highlight.js';
import { MARKDOWN_LIMIT, markdownTokens, safeHref } from './markdown.js';
import { formatNumber } from '../roles.js';

/** The block and inline elements a message's Markdown may make; any other tag is not made (its text is). */
const TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'em', 'strong', 's', 'hr', 'br']);

interface Frame {
  token: Token | undefined;
  children: ReactNode[];
}

/** Adds each of `items` (a loop: a long message's nodes would overflow a spread into push). */
function append(to: ReactNode[], items: readonly ReactNode[]): void {
  for (const x of items) to.push(x);
}

/** An attribute as text (markdown-it's type allows numbers). */
const attr = (token: Token, name: string): string => String(token.attrGet(name) ?? '');

function alignClass(token: Token): string | undefined {
  const style = attr(token, 'style');
  const m = style ? /text-align:(left|right|center)/.exec(style) : null;
  return m ? `md-align-${m[1]}` : undefined;
}

/** A link: its text, and where it goes when that is not the text itself; only an https address is followed, on a click. */
function link(open: Token, children: ReactNode[], key: number): ReactNode {
  const raw = attr(open, 'href');
  const href = safeHref(raw);
  const text = children;
  const shown = raw.replace(/^mailto:/, '');
  const same = open.markup === 'autolink' || open.info === 'auto';
  if (href) {
    return (
      <a key={key} className="md-link" href={href} target="_blank" rel="noopener noreferrer nofollow" title={`${href} (opens in your browser)`}>
        {text}
        {!same && <span className="md-href"> ({shown})</span>}
      </a>
    );
  }
  return (
    <span key={key} className="md-link inert" title={raw ? `${raw} (not followed: only https addresses open)` : undefined}>
      {text}
      {!same && raw && <span className="md-href"> ({shown})</span>}
    </span>
  );
}

/** Inline tokens (a paragraph's text, emphasis, code, links) as elements, the search's words marked. */
function inline(tokens: Token[], query: string): ReactNode[] {
  const root: Frame = { token: undefined, children: [] };
  const stack: Frame[] = [root];
  const top = () => stack[stack.length - 1];
  tokens.forEach((t, key) => {
    if (t.nesting === 1) {
      stack.push({ token: t, children: [] });
      return;
    }
    if (t.nesting === -1) {
      const frame = stack.length > 1 ? stack.pop()! : root;
      const open = frame.token;
      if (!open) return;
      if (open.type === 'link_open') top().children.push(link(open, frame.children, key));
      else top().children.push(TAGS.has(open.tag) ? createElement(open.tag, { key }, frame.children) : <span key={key}>{frame.children}</span>);
      return;
    }
    switch (t.type) {
      case 'text':
      case 'text_special':
      case 'html_inline':
        top().children.push(<Highlight key={key} text={t.content} query={query} />);
        break;
      case 'code_inline':
        top().children.push(
          <code key={key} className="md-code-inline">
            <Highlight text={t.content} query={query} />
          </code>,
        );
        break;
      case 'softbreak':
        top().children.push('\n');
        break;
      case 'hardbreak':
        top().children.push(<br key={key} />);
        break;
      case 'image': {
        // Never fetched: what it shows, and from where.
        const src = attr(t, 'src');
        const alt = t.children ? t.children.map((c) => c.content).join('') : t.content;
        top().children.push(
          <span key={key} className="md-image" title={`An image the message links to; not loaded (${src.startsWith('data:') ? 'inline data' : src})`}>
            [image{alt ? `: ${alt}` : ''}] <span className="md-href">{src.startsWith('data:') ? 'inline data' : src}</span>
          </span>,
        );
        break;
      }
      default:
        if (t.content) top().children.push(<Highlight key={key} text={t.content} query={query} />);
    }
  });
  // Unclosed frames (not made by markdown-it, but a stream is not trusted) give their children to the root.
  while (stack.length > 1) {
    const f = stack.pop()!;
    append(top().children, f.children);
  }
  return root.children;
}

/** Block tokens as elements. */
function blocks(tokens: Token[], query: string): ReactNode[] {
  const root: Frame = { token: undefined, children: [] };
  const stack: Frame[] = [root];
  const top = () => stack[stack.length - 1];
  tokens.forEach((t, key) => {
    if (t.nesting === 1) {
      stack.push({ token: t, children: [] });
      return;
    }
    if (t.nesting === -1) {
      const frame = stack.length > 1 ? stack.pop()! : root;
      const open = frame.token;
      if (!open) return;
      // A tight list's paragraphs are its items' text.
      if (open.hidden) append(top().children, frame.children);
      else if (!TAGS.has(open.tag)) top().children.push(<div key={key}>{frame.children}</div>);
      else {
        const props: Record<string, unknown> = { key };
        if (open.tag === 'ol') {
          const start = Number(attr(open, 'start') || 1);
          if (Number.isInteger(start) && start !== 1) props.start = start;
        }
        if (open.tag === 'th' || open.tag === 'td') props.className = alignClass(open);
        if (/^h[1-6]$/.test(open.tag)) props.className = `md-h md-${open.tag}`;
        top().children.push(createElement(open.tag, props, frame.children));
      }
      return;
    }
    switch (t.type) {
      case 'inline':
        append(top().children, inline(t.children ?? [], query));
        break;
      case 'fence':
      case 'code_block': {
        const lang = t.info.trim().split(/\s+/)[0];
        top().children.push(
          <div key={key} className="md-code">
            {lang && <span className="md-lang">{lang}</span>}
            <pre>
              <code>
                <Highlight text={t.content.replace(/\n$/, '')} query={query} />
              </code>
            </pre>
          </div>,
        );
        break;
      }
      case 'hr':
        top().children.push(<hr key={key} />);
        break;
      case 'html_block':
        // Raw HTML is off: markdown-it makes none, and text that would be is shown as text.
        top().children.push(
          <p key={key} className="md-raw">
            <Highlight text={t.content} query={query} />
          </p>,
        );
        break;
      default:
        if (t.content) top().children.push(<Highlight key={key} text={t.content} query={query} />);
    }
  });
  while (stack.length > 1) {
    const f = stack.pop()!;
    append(top().children, f.children);
  }
  return root.children;
}

/**
 * A message's text as Markdown: headings, lists, tables, code, links; raw HTML and images as text, nothing
 * fetched, no HTML string ever made. Past MARKDOWN_LIMIT, the text as it is (with a button to lay it out).
 */
export const Markdown = memo(function Markdown({ text, query = '' }: { text: string; query?: string }) {
  const [force, setForce] = useState(false);
  if (text.trim() === '') return <p className="muted md-empty">(empty)</p>;
  if (text.length > MARKDOWN_LIMIT && !force) {
    return (
      <div className="md">
        <p className="muted small">
          {formatNumber(text.length)} characters: shown as written.{' '}
          <button className="link small" onClick={() => setForce(true)} data-testid="markdown-anyway">
            lay it out as Markdown
          </button>
        </p>
        <pre className="md-plain">
          <Highlight text={text} query={query} />
        </pre>
      </div>
    );
  }
  return <div className="md">{blocks(markdownTokens(text), query)}</div>;
});
