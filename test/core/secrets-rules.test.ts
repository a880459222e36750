import fc from 'fast-check';
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { scanUnits } from '../../src/core/secrets/scan.js';
import { redactString } from '../../src/core/secrets/redact.js';
import { EDGE, PLANTED, plantedText } from '../support/planted-secrets.js';

const scan = async (text: string) => (await scanUnits([{ text, where: 0 }])).map((f) => ({ rule: f.rule, value: f.value, start: f.start, end: f.end }));

describe('each rule finds its secrets, whole, wherever they stand in a text (property)', () => {
  it.each(Object.keys(PLANTED))('%s', async (rule) => {
    await fc.assert(
      fc.asyncProperty(PLANTED[rule], EDGE, EDGE, fc.constantFrom('', 'see ', 'x = 1\n'), async (planted, before, after, words) => {
        const text = `${words}${before}${planted.text}${after}${words}`;
        const found = await scan(text);
        // Found, by its own rule (or, for an assignment, the provider's own), and covering every byte of it.
        const covering = found.filter((f) => f.start <= text.indexOf(planted.secret) && f.end >= text.indexOf(planted.secret) + planted.secret.length);
        expect(covering.length, `${JSON.stringify(text)}: ${JSON.stringify(found)}`).toBeGreaterThan(0);
        // And once redacted, none of it is left.
        const redacted = redactString(text, found);
        expect(redacted).not.toContain(planted.secret);
        expect(redacted).toContain(`[REDACTED:`);
      }),
      { numRuns: 40 },
    );
  });

  it('a redacted text is not found again (a placeholder in a connection string is no password)', async () => {
    await fc.assert(
      fc.asyncProperty(plantedText, async ({ planted, before, after }) => {
        const text = before + planted.text + after;
        const once = redactString(text, await scan(text));
        expect(await scan(once)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('a key cut short by a rule is redacted whole (the span goes on to the end of the token)', async () => {
    const key = 'OZVI/cbtT0QsObqv6hKbu8VYF4JTogj7AK+W0I/A';
    const text = `AWS_SECRET_ACCESS_KEY=${key}\nNEXT=1`;
    const found = await scan(text);
    expect(found.some((f) => f.value === key)).toBe(true);
    expect(redactString(text, found)).toBe('AWS_SECRET_ACCESS_KEY=[REDACTED:aws]\nNEXT=1');
  });

  it('a key right after an escaped newline inside JSON text (a tool call\'s arguments) is found', async () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}x9Y8z7`;
    const args = JSON.stringify({ command: `cat <<EOF\n${token}\nEOF` });
    const found = await scan(args);
    expect(found.map((f) => f.value)).toContain(token);
  });
});

/**
 * Texts that look random or structured but hold nothing anyone should hide: ids, hashes, images, times,
 * versions, code. The stated rate is none in each class of 2,000.
 */
describe('known false positives stay unflagged (0 of 2,000 in each class)', () => {
  const N = 2000;
  const classes: Record<string, () => string> = {
    'UUIDs': () => `session ${randomUUID()} resumed (parent ${randomUUID()})`,
    'SHA-1 and SHA-256 hashes, git commits': () => {
      const h = createHash('sha256').update(randomUUID()).digest('hex');
      return `commit ${h.slice(0, 40)}\nsha256:${h} ${h.slice(0, 7)} Merge branch`;
    },
    'base64 images': () => `data:image/png;base64,${Buffer.from(createHash('sha512').update(randomUUID()).digest().toString('hex').repeat(8)).toString('base64')}`,
    'times and numbers': () => {
      const t = Date.now() - Math.floor(Math.random() * 1e10);
      return `${new Date(t).toISOString()} took ${t % 10000} ms; epoch ${Math.floor(t / 1000)}; id ${t}${t % 97}`;
    },
    'versions and paths': () => `node v20.${Math.floor(Math.random() * 20)}.2 at /home/dev/.nvm/versions/node/v20.20.2/lib/node_modules/pkg@1.${Math.floor(Math.random() * 9)}.0/dist/index.js:${Math.floor(Math.random() * 999)}:12`,
    'code that names secrets': () => {
      const names = ['API_KEY', 'CLIENT_SECRET', 'AUTH_TOKEN', 'password', 'accessToken'];
      const n = names[Math.floor(Math.random() * names.length)];
      return `const ${n.toLowerCase()} = process.env.${n.toUpperCase()};\nif (!config.${n}) throw new Error('${n} is required');\npassword: string; token?: TokenType;`;
    },
  };
  it.each(Object.keys(classes))('%s', async (name) => {
    const units = Array.from({ length: N }, (_, i) => ({ text: classes[name](), where: i }));
    // A user name in a home path (/home/dev) is its own class, 'path', shared as <user>: not a false secret.
    const found = (await scanUnits(units)).filter((f) => f.kind !== 'path');
    expect(found.map((f) => `${f.rule}: ${units[f.where].text.slice(Math.max(0, f.start - 20), f.end + 20)}`)).toEqual([]);
  });
});

describe('cases met from outside', () => {
  const scan = async (text: string) => (await scanUnits([{ text, where: 0 }])).map((f) => ({ rule: f.rule, value: f.value }));
  it('a token in a URL is the token, not the slashes before it', async () => {
    const token = 'ghp_sMehGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8';
    expect(await scan(`git clone https://${token}@github.com/acme/api.git`)).toEqual([{ rule: 'github', value: token }]);
    expect(await scan(`https://x-access-token:${token}@github.com/a/b`)).toEqual([{ rule: 'github', value: token }]);
  });
  it('an scp-style git remote and a noreply address are no one\'s e-mail; a person\'s is', async () => {
    expect(await scan('remote git@github.com:acme/api.git, from noreply@github.com and no-reply@accounts.google.com')).toEqual([]);
    expect(await scan('write to bob.smith@gmail.com: he knows')).toEqual([{ rule: 'email', value: 'bob.smith@gmail.com' }]);
  });
  it('OpenAI keys without the marker: legacy sk- + 48, project and service account keys', async () => {
    const legacy = 'sk-' + 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9nP2rS5uV8';
    const proj = 'sk-proj-' + 'Zx81_Lk2-Qw9Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc8Vb7Nm6';
    expect(await scan(`OPENAI_API_KEY=${legacy}`)).toEqual([{ rule: 'openai', value: legacy }]);
    expect(await scan(`use ${proj} here`)).toEqual([{ rule: 'openai', value: proj }]);
    // Words joined by dashes are not a key.
    expect(await scan('see sk-learn-model-selection-and-evaluation-guide-for-beginners')).toEqual([]);
  });
});

describe('a password that begins like the name of one', () => {
  it('PGPASSWORD=\'PwdLGU5HDY!x\' is found (a random generator made it); password: passwordHash is a name, not a value', async () => {
    const found = await scanUnits([
      { text: "PGPASSWORD='PwdLGU5HDY!x'", where: 0 },
      { text: 'const password: passwordHash = hash(pwd);', where: 1 },
    ]);
    expect(found.filter((f) => f.kind === 'secret').map((f) => [f.where, f.rule, f.value])).toEqual([[0, 'assigned-password', 'PwdLGU5HDY!x']]);
  });
});
