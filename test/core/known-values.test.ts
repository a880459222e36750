import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnownValues } from '../../src/core/secrets/known-values.js';
import { patternFindings } from '../../src/core/secrets/scan.js';

const secretChar = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-'.split(''));
/** A key of the shape providers issue: letters and digits, with the punctuation base64 and URLs add. */
const secret = fc.array(secretChar, { minLength: 16, maxLength: 64 }).map((a) => `K${a.join('')}9`);
/** What stands around a value in text: the edges (whitespace of every kind, CR/CRLF, tabs, unicode separators, astral characters, syntax). */
const around = fc.array(fc.constantFrom(' ', '\t', '\r\n', '\n', '\r', '\u2028', '\u00a0', '😀', '"', "'", '`', '(', ')', '[', ']', '{', '}', ',', ';', ':', '=', '.', '<', '>', '&', 'é', 'word', ''), { maxLength: 6 }).map((a) => a.join(''));

describe('KnownValues: a value found once is replaced wherever it stands', () => {
  it('every occurrence of a known secret goes, whatever stands around it; the rest of the text is kept (fast-check)', () => {
    fc.assert(
      fc.property(secret, fc.array(around, { minLength: 1, maxLength: 6 }), (value, gaps) => {
        const known = new KnownValues();
        known.add({ value, rule: 'aws', label: 'AWS credential', kind: 'secret' });
        const text = gaps.join(value);
        const out = known.redact(text);
        expect(out.text).not.toContain(value);
        expect(out.replaced).toHaveLength(gaps.length - 1);
        expect(out.text).toBe(gaps.join('[REDACTED:aws]'));
      }),
      { numRuns: 300, seed: 38 },
    );
  });

  it('a value inside a longer run of letters and digits is another token; the longest of two known values wins', () => {
    const known = new KnownValues();
    known.add({ value: 'abcDEF123456', rule: 'x', label: 'x', kind: 'secret' });
    known.add({ value: 'abcDEF123456789', rule: 'y', label: 'y', kind: 'secret' });
    expect(known.redact('zabcDEF123456 abcDEF123456789 abcDEF123456.').text).toBe('zabcDEF123456 [REDACTED:y] [REDACTED:x].');
  });

  it('a page escapes what it shows: a value with & < > " is found as the page spells it', () => {
    const known = new KnownValues();
    known.add({ value: 'pa<ss>&"word12', rule: 'assigned-password', label: 'p', kind: 'secret' });
    const page = '<p>pa&lt;ss&gt;&amp;&quot;word12</p>';
    expect(known.redactRendered(page, true).text).toBe('<p>[REDACTED:assigned-password]</p>');
  });

  it('a user name: as a word when long, in paths, addresses and ls -l when short; a short one stays a word elsewhere', () => {
    const known = new KnownValues();
    known.add({ value: 'dev', rule: 'home-path', label: 'u', kind: 'path' });
    known.add({ value: 'mariakeller', rule: 'home-path', label: 'u', kind: 'path' });
    const text = 'npm run dev in /home/dev/app, ~dev, dev@box, -home-dev-app\n-rw-r--r--  1 dev  staff  1 run.sh\nmariakeller said hi; /Users/mariakeller';
    expect(known.redact(text).text).toBe('npm run dev in /home/<user>/app, ~<user>, <user>@box, -home-<user>-app\n-rw-r--r--  1 <user>  staff  1 run.sh\n<user> said hi; /Users/<user>');
    // On a page a short name is left to the views (`</span>` is a separator and a name).
    expect(known.redactRendered('<span>dev</span>', true).text).toBe('<span>dev</span>');
  });

  it('the path rules: home folders of every system, Claude Code folder names, USER values; placeholders are no one', () => {
    const found = (text: string) => patternFindings({ text, where: 0 }).filter((f) => f.kind === 'path').map((f) => f.value);
    expect(found('cwd /home/alice/shop and /Users/bob and C:\\Users\\carol\\x and C:\\\\Users\\\\dan\\\\y and /mnt/c/Users/erin/z')).toEqual(['alice', 'bob', 'carol', 'dan', 'erin']);
    expect(found('projects/-home-frank-shop/x.jsonl and C--Users-gina/y.jsonl')).toEqual(['frank', 'gina']);
    expect(found('USER=hank USERNAME: "ivy" LOGNAME=jo')).toEqual(['hank', 'ivy', 'jo']);
    expect(found('/home/user/x /Users/Shared /home/$USER /home/<user>/x /home/${USER} C:\\Users\\Public /homework/x /var/home2/x')).toEqual([]);
  });
});
