import { PATTERN_RULES } from './rules.js';

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
 * sidebar shows of a file before, and whatever, its scan finds. Personal data is left as it is (a name in a
 * title is what tells sessions apart); keys and tokens never reach the screen whole.
 */
export function maskedLine(text: string): string {
  let out = text;
  for (const rule of PATTERN_RULES) {
    if (rule.kind !== 'secret') continue;
    const re = new RegExp(rule.pattern.source, rule.pattern.flags.includes('g') ? rule.pattern.flags : `${rule.pattern.flags}g`);
    out = out.replace(re, (...args) => {
      const match = args[0] as string;
      const value = rule.group !== undefined ? (args[rule.group] as string | undefined) : match;
      if (!value) return match;
      const m = Object.assign([match, ...args.slice(1, -2)], { index: args[args.length - 2] as number, input: out }) as unknown as RegExpExecArray;
      if (rule.accept && !rule.accept(value, m)) return match;
      return match.replace(value, masked(value));
    });
  }
  return out.replace(PREFIXED, (token) => masked(token));
}
