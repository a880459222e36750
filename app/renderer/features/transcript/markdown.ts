import markdownIt, { type Token } from 'markdown-it';

/**
 * Markdown as the transcript reads it: markdown-it (CommonMark and GitHub's tables and strikethrough) with raw HTML
 * off, so a `<script>` or an `<img>` in a message is text; its tokens are made into React elements by
 * Markdown.tsx, never into an HTML string (nothing is given to innerHTML, so no sanitizer is needed). markdown-it
 * because it hands out a token stream (marked and most others hand out HTML), has a switch for raw HTML, is
 * plain JavaScript with no install step, and is kept up (CommonMark's spec tests and pathological-input tests
 * in its CI); `maxNesting` bounds how deep a crafted text can make it go.
 */
const md = markdownIt('default', { html: false, linkify: false, typographer: false, breaks: false, maxNesting: 20 });

/** Past this many characters a text is shown as it is (a Markdown parse of pathological input grows faster than its length). */
export const MARKDOWN_LIMIT = 24 * 1024;

// The messages on screen and around them: parsed once while they are scrolled past and back.
const CACHE_SIZE = 400;
const cache = new Map<string, Token[]>();

/** The block tokens of a text, from a small cache of the texts parsed last. */
export function markdownTokens(text: string): Token[] {
  const hit = cache.get(text);
  if (hit) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const tokens = md.parse(text, {});
  cache.set(text, tokens);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return tokens;
}

/**
 * Where a link may take the reader: an https address opens in their browser when clicked (the window's one way
 * out); anything else (http, mailto, a relative path, javascript:, data:) is shown, not followed.
 */
export function safeHref(href: string | null | undefined): string | undefined {
  if (!href) return undefined;
  const h = href.trim();
  // Control and white space characters inside a scheme are how `java\tscript:` gets past a naive check.
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  if (/[\u0000-\u0020\u007f-\u009f]/.test(h)) return undefined;
  return /^https:\/\/[^/\s]/i.test(h) ? h : undefined;
}
