// @vitest-environment happy-dom
// A message's Markdown in the transcript: rendered (headings, lists, tables, code), and inert whatever it holds:
// no element a message could script or load with, no link but an https one, opened only by a click.
import { cleanup, render } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from '../../app/renderer/features/transcript/Markdown.js';
import { MARKDOWN_LIMIT, safeHref } from '../../app/renderer/features/transcript/markdown.js';

afterEach(cleanup);

const HOSTILE = [
  '<script>alert(1)</script>',
  '',
  '<img src=http://evil.example/x.png onerror=alert(2)>',
  '',
  '<iframe src="https://evil.example/"></iframe><style>body{display:none}</style>',
  '',
  '[click me](javascript:alert(3)) and [again](JaVaScRiPt:alert(4)) and [tab](java\tscript:alert(5))',
  '',
  '![a pixel](http://evil.example/pixel.png) ![inline](data:image/png;base64,iVBORw0KGgo=)',
  '',
  '<a href="javascript:alert(6)">raw anchor</a> <svg onload=alert(7)></svg>',
  '',
  '[plain http](http://example.com/a) [mail](mailto:x@example.com) [relative](../etc/passwd) [data](data:text/html,<script>alert(8)</script>) [good](https://example.com/docs)',
].join('\n');

/** Everything in the rendered tree that could run, load or navigate. */
function dangers(root: HTMLElement): string[] {
  const out: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if (['script', 'img', 'iframe', 'style', 'object', 'embed', 'svg', 'link', 'meta', 'base', 'form', 'video', 'audio', 'source', 'picture'].includes(tag)) out.push(`<${tag}>`);
    for (const a of el.getAttributeNames()) {
      if (a.startsWith('on')) out.push(`${tag}[${a}]`);
      if (a === 'src' || a === 'srcset' || a === 'style' || a === 'formaction' || a === 'xlink:href') out.push(`${tag}[${a}]`);
    }
    if (tag === 'a') {
      const href = el.getAttribute('href') ?? '';
      if (!/^https:\/\//.test(href)) out.push(`a[href=${href}]`);
      if (el.getAttribute('target') !== '_blank' || !/noopener/.test(el.getAttribute('rel') ?? '')) out.push('a without target=_blank rel=noopener');
    }
  }
  return out;
}

describe('Markdown in the transcript', () => {
  it('renders what a message writes: headings, emphasis, lists, tables, code with its language', () => {
    const { container } = render(<Markdown text={'# Plan\n\n1. **Read** the `cart.ts`\n2. _Fix_ it\n\n| a | b |\n|--:|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n\n> quoted\n\n- [ ] task ~~gone~~'} />);
    expect(container.querySelector('h1')?.textContent).toBe('Plan');
    expect([...container.querySelectorAll('ol > li')].map((li) => li.textContent)).toEqual(['Read the cart.ts', 'Fix it']);
    expect(container.querySelector('strong')?.textContent).toBe('Read');
    expect(container.querySelector('code.md-code-inline')?.textContent).toBe('cart.ts');
    expect(container.querySelector('td.md-align-right')?.textContent).toBe('1');
    expect(container.querySelector('.md-code pre')?.textContent).toBe('const x = 1;');
    expect(container.querySelector('.md-lang')?.textContent).toBe('ts');
    expect(container.querySelector('blockquote')?.textContent).toContain('quoted');
    expect(container.querySelector('s')?.textContent).toBe('gone');
  });

  it('a message holding <script>, <img src=http…>, an iframe, javascript: links and remote images renders them inert, as text', () => {
    const { container } = render(<Markdown text={HOSTILE} />);
    expect(dangers(container)).toEqual([]);
    const text = container.textContent ?? '';
    // What they were is still there to read.
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('<img src=http://evil.example/x.png onerror=alert(2)>');
    expect(text).toContain('http://evil.example/pixel.png');
    // The one https link opens in the browser, on a click; the others show where they would go.
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/docs']);
    expect(text).toContain('plain http (http://example.com/a)');
    expect(container.querySelectorAll('.md-image')).toHaveLength(2);
  });

  it('a search marks its words inside the Markdown, code and link text included', () => {
    const { container } = render(<Markdown text={'Fix the **tax** line: `tax = round(x)` — see [tax docs](https://example.com)'} query="tax" />);
    expect([...container.querySelectorAll('mark.hit')].map((m) => m.textContent)).toEqual(['tax', 'tax', 'tax']);
  });

  it('an empty message says so; a text past the limit is shown as written until asked', () => {
    const { container, getByTestId } = render(<Markdown text={'  \n'} />);
    expect(container.textContent).toBe('(empty)');
    cleanup();
    const long = `# Title\n\n${'word '.repeat(MARKDOWN_LIMIT / 4)}`;
    const r = render(<Markdown text={long} />);
    expect(r.container.querySelector('h1')).toBeNull();
    expect(r.container.querySelector('pre.md-plain')?.textContent).toBe(long);
    void getByTestId;
    r.getByTestId('markdown-anyway').click();
  });

  it('only an https address is followed; schemes with controls or white space inside are not', () => {
    expect(safeHref('https://example.com/x')).toBe('https://example.com/x');
    expect(safeHref(' HTTPS://example.com')).toBe('HTTPS://example.com');
    for (const bad of ['http://example.com', 'javascript:alert(1)', 'java\nscript:alert(1)', 'https:\t//x', 'https://', 'mailto:a@b.c', '//evil.example', 'data:text/html,x', 'vbscript:x', '', undefined, null]) expect(safeHref(bad), String(bad)).toBeUndefined();
  });

  it('for any text built from Markdown’s and HTML’s syntax, nothing rendered can run, load or navigate', () => {
    const pieces = ['<script>', '</script>', '<img src=', 'http://evil.example/a.png', ' onerror=alert(1)', '>', '<', '[', ']', '(', ')', '![', 'javascript:', 'JAVASCRIPT:', 'data:text/html,', 'https://ok.example/', '`', '```', '*', '_', '|', '---', '#', '> ', '&', '&amp;', '"', "'", '\t', '\n', '\r\n', ' ', '\u2028', '\u00a0', '😀', 'text', '<a href="', '<svg onload=', '<style>', '<iframe ', '1. ', '- ', '<!--', '-->', '\\'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const { container } = render(<Markdown text={parts.join('')} />);
        try {
          expect(dangers(container)).toEqual([]);
        } finally {
          cleanup();
        }
      }),
      { numRuns: 300 },
    );
  });
});
