import type { MessageView, Part } from '../formats/model.js';
import { addUp, callsOf, costOf, costText, describeUsage, formatUsd, priceSourcesText, reportedUsage, withReportedTotals } from '../usage.js';
import type { ModelPrice } from '../pricing/prices.js';
import type { ReportedTotal } from '../formats/codec.js';

/** One thread of what is exported (a session's main thread, each sub-agent's), its messages seen and counted. */
export interface TranscriptThread {
  title: string;
  views: readonly MessageView[];
  /** Each message's tokens, as the app counts them. */
  tokens?: readonly number[];
  /** Each message's number as the reader knows it (its row), when it is not its place here (a selection). */
  numbers?: readonly number[];
  /** The totals its tool reported for runs of these messages (Copilot CLI's), when they are a whole conversation. */
  totals?: readonly ReportedTotal[];
}

export interface Transcript {
  title: string;
  /** Where it came from: the file, its format. */
  source: string;
  format: string;
  /** The model or encoding the token figures are counted with. */
  countedWith?: string;
  threads: readonly TranscriptThread[];
  /** What was redacted (by rule), when the export was; `dismissed`: findings the user called false positives, kept. */
  redacted?: { total: number; byRule: Record<string, number>; dismissed?: number };
  /** The user's own prices, over the dated table's (by model name prefix). */
  prices?: Readonly<Record<string, ModelPrice>>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (x: number) => x.toLocaleString('en-US');

/** Tool-call arguments as a reader wants them: JSON indented (and any escapes in it written out). */
export function pretty(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

/** A call's cost at list prices, when its usage is reported and its model priced. */
function callCost(v: MessageView, prices: Transcript['prices']): string | undefined {
  if (!v.usage) return undefined;
  const report = addUp([v.usage.model || !v.model ? v.usage : { ...v.usage, model: v.model }]);
  if (!report) return undefined;
  const cost = costOf(report, prices);
  return cost.unpriced.length > 0 ? undefined : formatUsd(cost.usd);
}

/** The header's figures: messages, tokens, reported usage and its cost, for all the threads. */
function figures(t: Transcript): string[] {
  const views = t.threads.flatMap((th) => th.views);
  const tokens = t.threads.every((th) => th.tokens) ? t.threads.reduce((s, th) => s + th.tokens!.reduce((a, b) => a + b, 0), 0) : undefined;
  // Counted in the text as shared: a redaction's placeholders count, not what they replaced.
  const counted = [t.countedWith, t.redacted && t.redacted.total > 0 ? 'as shared, redacted' : undefined].filter(Boolean).join(', ');
  const out = [`${n(views.length)} messages${tokens !== undefined ? ` · ${n(tokens)} tokens${counted ? ` (${counted})` : ''}` : ''}`];
  // Totals a tool reports per run stand for the calls they add up, as in the app and `tokens` (usage.ts).
  const usage = t.threads.some((th) => th.totals?.length) ? addUp(t.threads.flatMap((th) => withReportedTotals(callsOf(th.views), th.totals ?? []).map((c) => c.usage))) : reportedUsage(views);
  if (usage) {
    out.push(`Reported by the API: ${n(usage.calls)} model call${usage.calls === 1 ? '' : 's'}, ${describeUsage(usage)}`);
    const cost = costOf(usage, t.prices);
    out.push(`Cost: ${costText(cost, Object.keys(usage.byModel).length)}`);
    if (cost.sources.length) out.push(`Prices: ${priceSourcesText(cost).split('\n').join('; ')}`);
  }
  if (t.redacted) {
    const rules = Object.entries(t.redacted.byRule).map(([r, k]) => `${r} ${k}`).join(', ');
    const kept = t.redacted.dismissed ? `; ${n(t.redacted.dismissed)} dismissed as false positives kept` : '';
    out.push(t.redacted.total === 0 ? `Redacted: nothing was found to redact${kept}` : `Redacted: ${n(t.redacted.total)} finding${t.redacted.total === 1 ? '' : 's'} replaced by [REDACTED:<rule>] (${rules}); the report of what was taken out, and where, goes with this file${kept}`);
  }
  return out;
}

function partMarkdown(p: Part): string {
  switch (p.kind) {
    case 'text':
      return p.text;
    case 'tool-call':
      return `**Tool call** \`${p.name}\`${p.id ? ` (${p.id})` : ''}\n\n\`\`\`json\n${pretty(p.arguments)}\n\`\`\``;
    case 'tool-result':
      return `**Tool result**${p.callId ? ` for ${p.callId}` : ''}${p.isError ? ' (error)' : ''}\n\n\`\`\`\n${p.text}\n\`\`\``;
    case 'reasoning':
      return p.encrypted ? '> *(encrypted reasoning)*' : `<details><summary>Reasoning</summary>\n\n${p.text.split('\n').map((l) => `> ${l}`).join('\n')}\n\n</details>`;
    case 'image':
    case 'file':
      return `*(${p.kind}: ${p.ref.startsWith('data:') ? `inline ${p.mediaType ?? 'data'}` : p.ref})*`;
    default:
      return '```json\n' + p.text + '\n```';
  }
}

/** A transcript in Markdown: a header with the figures, then each thread's messages. */
export function transcriptMarkdown(t: Transcript): string {
  const out = [`# ${t.title}`, '', `${t.source} · ${t.format}`, '', ...figures(t).map((l) => `- ${l}`), ''];
  for (const th of t.threads) {
    if (t.threads.length > 1) out.push(`## ${th.title}`, '');
    th.views.forEach((v, i) => {
      const cost = callCost(v, t.prices);
      const head = [`### ${th.numbers?.[i] ?? i} · ${v.role}`, v.timestamp, th.tokens ? `${n(th.tokens[i])} tokens` : undefined, v.usage ? `reported ${describeUsage(v.usage)}${cost ? ` (${cost})` : ''}` : undefined, v.sidechain ? 'sub-agent' : undefined, v.meta ? 'written by the tool' : undefined].filter(Boolean).join(' · ');
      out.push(head, '', v.parts.map(partMarkdown).join('\n\n'), '');
    });
  }
  return out.join('\n');
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1d1f23; --muted: #6b7280; --bg: #ffffff; --panel: #f6f7f9; --line: #d9dde3; --call: #b45309; --result: #1d4ed8; --error: #b91c1c; }
@media (prefers-color-scheme: dark) { :root { --fg: #e5e7eb; --muted: #9ca3af; --bg: #111317; --panel: #1a1d23; --line: #2d333b; --call: #f59e0b; --result: #60a5fa; --error: #f87171; } }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 60rem; padding: 1.5rem; }
header { border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
header h1 { font-size: 1.4rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
header p, header li { color: var(--muted); margin: .15rem 0; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
article { border: 1px solid var(--line); border-radius: 6px; margin: .75rem 0; padding: .5rem .75rem; }
article.user { background: var(--panel); }
article.meta, article.sidechain { opacity: .85; border-style: dashed; }
.head { display: flex; flex-wrap: wrap; gap: .5rem; font-size: .85rem; color: var(--muted); margin-bottom: .25rem; }
.role { font-weight: 600; color: var(--fg); }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.4 ui-monospace, Menlo, Consolas, monospace; background: var(--panel); padding: .5rem; border-radius: 4px; margin: .25rem 0; }
.call { border-left: 3px solid var(--call); padding-left: .5rem; margin: .4rem 0; }
.result { border-left: 3px solid var(--result); padding-left: .5rem; margin: .4rem 0; }
.result.error { border-left-color: var(--error); }
summary { cursor: pointer; color: var(--muted); font-size: .9rem; }
img { max-width: 100%; }
.redacted { background: #fde68a; color: #111; border-radius: 3px; padding: 0 .2rem; }
`;

/** Text with each redaction mark shown as one. */
const marked = (s: string) => esc(s).replace(/\[REDACTED:[^\]]{1,80}\]/g, (m) => `<span class="redacted">${m}</span>`);

function partHtml(p: Part): string {
  switch (p.kind) {
    case 'text':
      return `<div class="text">${marked(p.text)}</div>`;
    case 'tool-call':
      return `<div class="call"><div class="head"><span class="role">⚙ ${esc(p.name)}</span>${p.id ? `<code>${esc(p.id)}</code>` : ''}</div><pre>${marked(pretty(p.arguments))}</pre></div>`;
    case 'tool-result': {
      const long = p.text.length > 1200 || p.text.split('\n').length > 20;
      return `<details class="result${p.isError ? ' error' : ''}"${long ? '' : ' open'}><summary>↩ result${p.callId ? ` for <code>${esc(p.callId)}</code>` : ''}${p.isError ? ' (error)' : ''} · ${n(p.text.length)} characters</summary><pre>${marked(p.text)}</pre></details>`;
    }
    case 'reasoning':
      return p.encrypted ? '<p class="head">(encrypted reasoning)</p>' : `<details class="reasoning"><summary>Reasoning · ${n(p.text.length)} characters</summary><div class="text">${marked(p.text)}</div></details>`;
    case 'image':
      return p.ref.startsWith('data:image/') ? `<img src="${esc(p.ref)}" alt="an image in the message">` : `<p class="head">(image: ${esc(p.ref)})</p>`;
    case 'file':
      return `<p class="head">(file: ${esc(p.ref.startsWith('data:') ? `inline ${p.mediaType ?? 'data'}` : p.ref)})</p>`;
    default:
      return `<details><summary>${esc(p.type)}</summary><pre>${marked(p.text)}</pre></details>`;
  }
}

/**
 * A transcript as one self-contained HTML page: no script, no request to anywhere (its own CSP says so), styles
 * inline; tool calls as cards, results and reasoning folded where long, each thread a section, the figures and
 * cost in the header. Readable with scripts off, printable, and safe to send.
 */
export function transcriptHtml(t: Transcript): string {
  const sections = t.threads
    .map((th) => {
      const items = th.views
        .map((v, i) => {
          const cost = callCost(v, t.prices);
          const head = [`<span class="role">${esc(v.role)}</span>`, `<span>#${th.numbers?.[i] ?? i}</span>`, v.timestamp ? `<span>${esc(v.timestamp)}</span>` : '', th.tokens ? `<span>${n(th.tokens[i])} tokens</span>` : '', v.usage ? `<span>reported ${esc(describeUsage(v.usage))}${cost ? ` · ${cost}` : ''}</span>` : '', v.sidechain ? '<span>sub-agent</span>' : '', v.meta ? '<span>written by the tool</span>' : '', v.category ? `<span>${esc(v.category)}</span>` : ''].filter(Boolean).join('');
          const cls = [v.normalRole, v.meta ? 'meta' : '', v.sidechain ? 'sidechain' : ''].filter(Boolean).join(' ');
          return `<article class="${cls}" id="${esc(th.title.replace(/\W+/g, '-'))}-${i}"><div class="head">${head}</div>${v.parts.map(partHtml).join('')}</article>`;
        })
        .join('\n');
      return `<section>${t.threads.length > 1 ? `<h2>${esc(th.title)} · ${n(th.views.length)} messages</h2>` : ''}\n${items}\n</section>`;
    })
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="conversation-inspector">
<title>${esc(t.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${esc(t.title)}</h1>
<p>${esc(t.source)} · ${esc(t.format)}</p>
<ul>${figures(t)
    .map((l) => `<li>${esc(l)}</li>`)
    .join('')}</ul>
</header>
${sections}
</body>
</html>
`;
}
