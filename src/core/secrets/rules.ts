/**
 * What is looked for. Provider keys, tokens and private keys come from secretlint's recommended preset
 * (@secretlint/secretlint-rule-preset-recommend: a maintained rule set, each rule written and tested against
 * its provider's documented format): AWS, GCP, private keys, npm, basic auth in URLs, Slack, SendGrid,
 * Shopify, GitHub, OpenAI, Linear, 1Password. Beside it, published patterns secretlint leaves out (from
 * gitleaks' default config, MIT): Anthropic, Stripe, GitLab, Twilio, Google API and Hugging Face keys, JSON Web
 * Tokens, connection strings with a password, and secrets assigned to a name that says so, kept when random
 * enough (detect-secrets' keyword and entropy approach); and personal data: e-mail addresses, phone numbers
 * (libphonenumber's own finder, which checks each number against its country's plan), public IP addresses.
 */
export type Kind = 'secret' | 'personal' | 'path';

export interface Rule {
  id: string;
  /** Said to the user: what was found. */
  label: string;
  kind: Kind;
}

/** Rules applied here by a regular expression (secretlint's and libphonenumber's come with their libraries). */
export interface PatternRule extends Rule {
  pattern: RegExp;
  /** The part of a match that is the secret (a capture group), and a last check of it. */
  group?: number;
  accept?: (found: string, match: RegExpExecArray) => boolean;
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^[0-9a-f]+$/i;

/** A value that stands for one (xxxx, ****, <token>, ${TOKEN}, your_key_here, changeme), or one already redacted. */
export function placeholder(value: string): boolean {
  if (/^(x+|\*+|\.+|•+|<[^>]*>|\$\{[^}]*\}|\$[A-Z_]+|\{\{[^}]*\}\}|%[A-Z_]+%)$/i.test(value)) return true;
  if (/^(your[-_]|my[-_]|example|sample|dummy|changeme|change[-_]me|placeholder|redacted|null|none|true|false)/i.test(value)) return true;
  return /\[REDACTED:/.test(value);
}

/**
 * A value assigned to a secret's name looks like a secret: long enough, not a placeholder, random enough for
 * its alphabet (hex carries 4 bits a character at most, base64 6), not an id everyone logs (a UUID).
 */
export function looksSecret(value: string): boolean {
  if (value.length < 16 || UUID.test(value)) return false;
  if (placeholder(value)) return false;
  return entropy(value) >= (HEX.test(value) ? 3.0 : 3.7);
}

/**
 * A name in code rather than a value: a dotted path of identifiers (process.env.API_SECRET), or letters and
 * underscores alone (ALL_SPECIAL_TOKENS); a generated secret has digits in it.
 */
export function identifierLike(value: string): boolean {
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return true;
  if (!/\d/.test(value)) return true;
  return false;
}

export const PATTERN_RULES: PatternRule[] = [
  // Provider formats of gitleaks' default rules that secretlint's preset does not cover.
  { id: 'anthropic', label: 'Anthropic API key', kind: 'secret', pattern: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}/g },
  { id: 'stripe', label: 'Stripe key', kind: 'secret', pattern: /\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{20,99}\b/g },
  { id: 'gitlab', label: 'GitLab token', kind: 'secret', pattern: /\bgl(?:pat|dt|ptt|rt|cbt)-[A-Za-z0-9_-]{20,}(?![\w-])/g },
  // OpenAI keys without the T3BlbkFJ marker secretlint's rule needs (legacy `sk-` + 48, project and service keys).
  { id: 'openai', label: 'OpenAI API key', kind: 'secret', pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{40,}(?![\w-])/g, accept: (s) => /\d/.test(s) && /[A-Z]/.test(s) && /[a-z]/.test(s.slice(3)) },
  // secretlint's AWS rule finds the secret access key; the key id beside it is gitleaks' `aws-access-token`.
  { id: 'aws-access-key-id', label: 'AWS access key ID', kind: 'secret', pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { id: 'twilio', label: 'Twilio API key', kind: 'secret', pattern: /\bSK[0-9a-f]{32}\b/g },
  { id: 'twilio-account', label: 'Twilio account SID', kind: 'secret', pattern: /\bAC[0-9a-f]{32}\b/g },
  { id: 'google-api-key', label: 'Google API key', kind: 'secret', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  // secretlint's SendGrid rule allows one dash in the key's second part; keys have any number (gitleaks' rule).
  { id: 'sendgrid', label: 'SendGrid API key', kind: 'secret', pattern: /(?<![A-Za-z0-9])SG\.[\w-]{22}\.[\w-]{43}(?![\w-])/g },
  { id: 'huggingface', label: 'Hugging Face token', kind: 'secret', pattern: /\bhf_[A-Za-z]{34}\b/g },
  {
    id: 'jwt',
    label: 'JSON Web Token',
    kind: 'secret',
    // gitleaks' `jwt`: a header and a payload that are base64url JSON objects, and a signature.
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
  },
  {
    id: 'connection-string',
    label: 'connection string with a password',
    kind: 'secret',
    // A database or broker URL with user:password@ (gitleaks' and detect-secrets' URL credential rules).
    pattern: /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|clickhouse|oracle|ftp|sftp|smtp|ldaps?):\/\/[^\s:/@'"]+:([^\s@/'"]{3,})@[^\s'"]+/gi,
    group: 1,
    accept: (pw) => !/^(\*+|x+|password|pass|pwd|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\})$/i.test(pw),
  },
  {
    id: 'assigned-secret',
    label: 'secret assigned to a name that says so',
    kind: 'secret',
    // KEY=value, key: "value", "key": "value", --key value: the name says what the value is.
    pattern: /(?:^|[^A-Za-z0-9])((?:[A-Za-z0-9]+[_.-])*[A-Za-z0-9]*?(?:secret|token|api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key|client[_.-]?secret|auth[_.-]?key|credential)s?(?:[_.-][A-Za-z0-9]+)*)["']?\s*(?:[:=]|\s)\s*["']?([A-Za-z0-9/+_=.~-]{16,})["']?/gi,
    group: 2,
    accept: (value, m) => {
      if (!looksSecret(value) || identifierLike(value)) return false;
      // Set apart by = or :, or given to a --flag; `token foo` in prose is no assignment.
      const between = m[0].slice(m[0].indexOf(m[1]) + m[1].length, m[0].lastIndexOf(value));
      return /[:=]/.test(between) || m[0].startsWith('-');
    },
  },
  {
    id: 'assigned-password',
    label: 'password assigned to a name that says so',
    kind: 'secret',
    // PGPASSWORD='…', password: "…", --password …: a password is short and need not look random, so the name
    // must say so, and the value must not be a word, a placeholder or a variable.
    pattern: /(?:^|[^A-Za-z0-9])((?:[A-Za-z0-9]+[_.-])*[A-Za-z0-9]*?(?:passw(?:or)?d|passwd|pwd|passphrase)s?(?:[_.-][A-Za-z0-9]+)*)["']?\s*(?:[:=]|\s)\s*(["']?)([^\s"'`,;(){}<>$[\]]{8,64})\2/gi,
    group: 3,
    accept: (value, m) => {
      // A name, not a value (password: passwordHash, PWD=pwd_from_env); `PwdLGU5HDY!x` is a password that starts so.
      if (placeholder(value) || /^(passw|passphrase|pwd|secret|undefined|required|optional)[A-Za-z_.]*$/i.test(value)) return false;
      // A word or a name is a type, a field or a variable (password: string, password=getPass): a password has digits or symbols in it.
      if (/^[A-Za-z_]+$/.test(value) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
      const between = m[0].slice(m[0].indexOf(m[1]) + m[1].length, m[0].lastIndexOf(value));
      return /[:=]/.test(between) || m[0].startsWith('-');
    },
  },
  {
    id: 'email',
    label: 'e-mail address',
    kind: 'personal',
    // Not an scp-style remote (git@github.com:org/repo.git): a path follows its colon.
    pattern: /\b[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24}\b(?!:[\w~./-])/g,
    // Not the placeholders of docs and tests, nor a package's or image's version tag (name@1.2.3), nor an
    // address no one reads (noreply@…).
    accept: (s) => !/@(?:example\.(?:com|org|net)|localhost|test|invalid)$/i.test(s) && !/@\d/.test(s) && !/\.(?:png|jpe?g|gif|svg|webp)$/i.test(s) && !/^(?:no-?reply|do-?not-?reply|mailer-daemon)@/i.test(s),
  },
  {
    id: 'ip-address',
    label: 'public IP address',
    kind: 'personal',
    pattern: /\b(?<![\d.])((?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})(?![\d.])/g,
    group: 1,
    // Addresses that say nothing of anyone: private, loopback, link-local, documentation, and version-like ones.
    accept: (ip) => {
      const [a, b] = ip.split('.').map(Number);
      if (a === 10 || a === 127 || a === 0 || a >= 224 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return false;
      if ((a === 192 && b === 0) || (a === 198 && (b === 51 || b === 18 || b === 19)) || (a === 203 && b === 0)) return false;
      // Four small numbers are a version (1.2.3.4, 11.6.2.1) or a public resolver (8.8.8.8, 1.1.1.1): no one's address.
      if (ip.split('.').every((o) => Number(o) < 16)) return false;
      return true;
    },
  },
];

/** Names a home folder's path holds that name no one (a placeholder, a shared or system account). */
const NO_ONE = /^(?:user|username|users|name|you|me|someone|anyone|shared|public|default|default user|all users|guest|runner|root|admin|home|test|tests|example|\$\w+|\$\{[^}]*\}|%\w+%|<[^>]*>|\{[^}]*\}|\*+|\.\.?|x+)$/i;
const someone = (name: string) => !NO_ONE.test(name) && !/^\d+$/.test(name);

/**
 * Paths and user names: a class of their own (kind `path`), replaced by `<user>` when shared, so that
 * `/home/alice/shop` reads `/home/<user>/shop`. A home folder's name (Linux, macOS, Windows, WSL, and Claude
 * Code's project folders that spell the path with dashes: `-home-alice-shop`), and the value of USER, USERNAME or
 * LOGNAME.
 */
export const PATH_RULES: PatternRule[] = [
  {
    id: 'home-path',
    label: 'user name in a home folder path',
    kind: 'path',
    pattern: /(?:^|(?<=[^A-Za-z0-9_.-]))(?:\/home|\/Users|\/mnt\/[a-z]\/Users|[A-Za-z]:(?:\\{1,2}|\/)(?:Users|Documents and Settings))(?:\\{1,2}|\/)([A-Za-z0-9_][A-Za-z0-9._-]{0,63})(?=$|[\\/\s"'`,;:)\]}>]|\\)/g,
    group: 1,
    accept: (name) => someone(name) && !/\.$/.test(name),
  },
  {
    id: 'home-path',
    label: 'user name in a home folder path',
    kind: 'path',
    // Claude Code names a project's folder by its path, each / \ : and . a dash: `-home-alice-shop`, `-Users-bob-app`, `C--Users-carol`.
    pattern: /(?:^|(?<=[\\/\s"'=]))(?:[A-Za-z]-)?-(?:home|Users)-([A-Za-z0-9_]{1,64})(?=-|$|[\\/\s"'])/g,
    group: 1,
    accept: someone,
  },
  {
    id: 'user-name',
    label: 'user name',
    kind: 'path',
    // USER=alice, "USERNAME": "alice", $env:USERNAME = 'alice', LOGNAME: alice.
    pattern: /(?<![A-Za-z0-9_])(?:USER|USERNAME|LOGNAME)["']?\s*[:=]\s*["']?([A-Za-z0-9_][A-Za-z0-9._-]{0,63})(?![A-Za-z0-9_.-])/g,
    group: 1,
    accept: someone,
  },
];

export const PHONE_RULE: Rule = { id: 'phone-number', label: 'phone number', kind: 'personal' };

/** secretlint's rule ids, as the user is told them: the provider, without the package's prefix. */
const SECRETLINT_LABELS: Record<string, string> = {
  aws: 'AWS credential',
  gcp: 'Google Cloud service account key',
  privatekey: 'private key',
  npm: 'npm token',
  basicauth: 'password in a URL',
  slack: 'Slack token',
  sendgrid: 'SendGrid API key',
  shopify: 'Shopify token',
  github: 'GitHub token',
  openai: 'OpenAI API key',
  linear: 'Linear API key',
  '1password': '1Password secret',
};

export function secretlintRule(ruleId: string): Rule {
  const name = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  return { id: name, label: SECRETLINT_LABELS[name] ?? name.replace(/-/g, ' '), kind: 'secret' };
}

/** Whether a rule is one of secretlint's (its findings win where another rule finds the same place). */
export const isSecretlintRule = (id: string): boolean => id in SECRETLINT_LABELS;
