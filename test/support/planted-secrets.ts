import fc from 'fast-check';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;

/**
 * A string of `n` characters of `alphabet`, as random as a provider's key (a shrunk "AAAA…7" is no key anyone
 * is issued, and the entropy rules rightly pass it by): drawn from a seed, with a digit and a letter in it.
 */
const chars = (alphabet: string, n: number) =>
  fc.integer().map((seed) => {
    let x = seed >>> 0 || 1;
    const a: string[] = [];
    for (let i = 0; i < n; i++) {
      // xorshift32: enough for test keys
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      a.push(alphabet[x % alphabet.length]);
    }
    if (/\d/.test(alphabet) && !a.some((c) => /\d/.test(c))) a[n >> 1] = '7';
    if (/[a-z]/i.test(alphabet) && !a.some((c) => /[a-z]/i.test(c))) a[0] = 'k';
    return a.join('');
  });

/**
 * A secret of one rule as it is planted (`text`) and the bytes that must never reach a redacted copy
 * (`secret`: the key itself, a connection string's password, a private key's body).
 */
export interface Planted {
  rule: string;
  text: string;
  secret: string;
}

/** Every rule's secrets, shaped as their providers issue them (the formats secretlint's and gitleaks' rules describe). */
export const PLANTED: Record<string, fc.Arbitrary<Planted>> = {
  github: chars(ALNUM, 36).map((s) => `ghp_${s}`).map((t) => ({ rule: 'github', text: t, secret: t })),
  openai: fc.tuple(chars(ALNUM, 58), chars(ALNUM, 58)).map(([a, b]) => `sk-proj-${a}T3BlbkFJ${b}`).map((t) => ({ rule: 'openai', text: t, secret: t })),
  anthropic: chars(ALNUM + '_-', 93).map((s) => `sk-ant-api03-${s}AA`).map((t) => ({ rule: 'anthropic', text: t, secret: t })),
  stripe: chars(ALNUM, 24).map((s) => `sk_live_${s}`).map((t) => ({ rule: 'stripe', text: t, secret: t })),
  gitlab: chars(ALNUM, 20).map((s) => `glpat-${s}`).map((t) => ({ rule: 'gitlab', text: t, secret: t })),
  slack: fc.tuple(chars(DIGITS, 12), chars(DIGITS, 13), chars(ALNUM, 24)).map(([a, b, c]) => `xoxb-${a}-${b}-${c}`).map((t) => ({ rule: 'slack', text: t, secret: t })),
  'google-api-key': chars(ALNUM + '_-', 35).map((s) => `AIza${s}`).map((t) => ({ rule: 'google-api-key', text: t, secret: t })),
  huggingface: chars(UPPER + LOWER, 34).map((s) => `hf_${s}`).map((t) => ({ rule: 'huggingface', text: t, secret: t })),
  npm: chars(ALNUM, 36).map((s) => `npm_${s}`).map((t) => ({ rule: 'npm', text: t, secret: t })),
  sendgrid: fc.tuple(chars(ALNUM, 22), chars(ALNUM + '_-', 43)).map(([a, b]) => `SG.${a}.${b}`).map((t) => ({ rule: 'sendgrid', text: t, secret: t })),
  'aws-access-key-id': chars(UPPER + DIGITS, 16).map((s) => `AKIA${s}`).map((t) => ({ rule: 'aws-access-key-id', text: t, secret: t })),
  aws: chars(ALNUM + '/+', 40).map((s) => ({ rule: 'aws', text: `AWS_SECRET_ACCESS_KEY=${s}`, secret: s })),
  jwt: fc.tuple(chars(ALNUM + '_-', 30), chars(ALNUM + '_-', 43)).map(([p, s]) => `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${p}.${s}`).map((t) => ({ rule: 'jwt', text: t, secret: t })),
  'connection-string': chars(ALNUM + '!-', 14).map((pw) => ({ rule: 'connection-string', text: `postgres://app_user:${pw}@db.example-internal.net:5432/app`, secret: pw })),
  'assigned-secret': chars(ALNUM, 32).map((s) => ({ rule: 'assigned-secret', text: `CLIENT_SECRET=${s}`, secret: s })),
  'assigned-password': chars(ALNUM + '!%-', 12).map((s) => ({ rule: 'assigned-password', text: `PGPASSWORD='${s}'`, secret: s })),
  privatekey: chars(ALNUM + '+/', 256).map((body) => ({
    rule: 'privatekey',
    text: `-----BEGIN RSA PRIVATE KEY-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END RSA PRIVATE KEY-----`,
    secret: body.slice(0, 64),
  })),
  email: fc.tuple(chars(LOWER, 6), chars(LOWER, 7)).map(([u, d]) => `${u}.k@${d}-mail.de`).map((t) => ({ rule: 'email', text: t, secret: t })),
  'phone-number': fc.tuple(chars(DIGITS, 4), chars(DIGITS, 4)).map(([a, b]) => `+49 151 ${a}${b}`).map((t) => ({ rule: 'phone-number', text: t, secret: t })),
  'ip-address': fc.tuple(fc.integer({ min: 20, max: 99 }), fc.integer({ min: 16, max: 250 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map((o) => o.join('.')).map((t) => ({ rule: 'ip-address', text: t, secret: t })),
};

/** Any rule's secret. */
export const anyPlanted: fc.Arbitrary<Planted> = fc.oneof(...Object.values(PLANTED));

/**
 * What stands around a planted secret: the edges that break naive scanners and writers (whitespace of every
 * kind, line ends, unicode separators, astral characters, a format's own syntax characters), none of them a
 * character a token could go on with.
 */
export const EDGE = fc.constantFrom(' ', '\n', '\r\n', '\t', '\u2028', '\u00a0', '"', "'", '`', '(', ')', ', ', '; ', '😀 ', '{', '}', '[', ']', '# ', ': ', '\\n', '<', '>', '\u3000', '\r');

/** A secret in a text, with edges around it and ordinary words beside. */
export const plantedText = fc.record({
  planted: anyPlanted,
  before: fc.tuple(fc.constantFrom('', 'The config says', 'ok:', '  leading', 'ünïcödé ✓'), EDGE).map(([w, e]) => w + e),
  after: fc.tuple(EDGE, fc.constantFrom('', 'and that is all', 'trailing  ', '1', 'ß')).map(([e, w]) => e + w),
});
