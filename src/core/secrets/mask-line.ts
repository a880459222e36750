import { patternFindings } from './scan.js';

/**
 * Tokens by the prefixes their issuers give them (GitHub, Slack, AWS key ids, OpenAI, Stripe, npm, GitLab,
 * Hugging Face, Google, SendGrid, JWTs): enough to know one on sight in a line of text without a full scan.
 */
const PREFIXED = /\b(?:gh[pousr]_|github_pat_|xox[abposr]-|A(?:KIA|SIA)|sk-|[sr]k_(?:live|test)_|npm_|glpat-|hf_|AIza|SG\.|eyJ)[A-Za-z0-9_\-.+/=]{8,}/g;

/** A value shown with only its ends (`ghp_••••••••VjGA`). */
export function masked(value: string): string {
  if (value.length <= 8) return '•'.repeat(value.length);
  const keep = Math.min(4, Math.floor(value.length / 6));
  return `${value.slice(0, keep)}${'•'.repeat(Math.min(12, value.length - keep * 2))}${value.slice(-keep)}`;
}

/**
 * A line of text (a session's title, its first prompt) with the secrets in it masked, synchronously: what a
 * sidebar shows of a file before, and whatever, its scan finds. The pattern rules' secrets and tokens known by
 * their prefix are masked; personal data is left (a name in a title is what tells sessions apart).
 */
export function maskedLine(text: string): string {
  const spans = patternFindings({ text, where: 0 }).filter((f) => f.kind === 'secret').sort((a, b) => b.start - a.start);
  let out = text;
  let before = Infinity;
  for (const f of spans) {
    if (f.end > before) continue;
    out = out.slice(0, f.start) + masked(f.value) + out.slice(f.end);
    before = f.start;
  }
  return out.replace(PREFIXED, (token) => masked(token));
}
