// Looking for secrets in a long history of real text: a first scan and one after a one-message edit (only the
// new record looked into), beside reading and parsing the same file.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeConversation } from '../src/core/index.js';
import { readDocumentFile } from '../src/core/formats/document-file.js';
import { scanDocument } from '../src/core/secrets/document-scan.js';
import { findingsOfRecords } from '../src/core/secrets/record-findings.js';
import { realisticHistory } from './corpus.js';

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

export async function secretsBench(quick: boolean): Promise<string[]> {
  const n = quick ? 5_000 : 40_000;
  const messages = realisticHistory(n, 23);
  // About one message in 300 holds a secret, as an agent's reads of .env files and command lines leave them.
  messages.forEach((m, i) => {
    if (i % 300 === 150 && typeof m.content === 'string') m.content += `\n\nexport GITHUB_TOKEN=ghp_${Buffer.from(`k${i}`).toString('hex').padEnd(36, 'Qx7')}`;
  });
  const dir = mkdtempSync(join(tmpdir(), 'ci-secrets-'));
  const lines: string[] = [];
  try {
    const file = join(dir, 'history.json');
    writeFileSync(file, serializeConversation(messages, { format: 'json' }));
    const mb = statSync(file).size / 1e6;
    const parse: number[] = [];
    const scan: number[] = [];
    let found = 0;
    for (let k = 0; k < 3; k++) {
      let t = performance.now();
      const { doc } = readDocumentFile(file);
      parse.push(performance.now() - t);
      t = performance.now();
      found = (await scanDocument(doc)).length;
      scan.push(performance.now() - t);
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1];
    const base = median(parse);
    const first = median(scan);
    lines.push(`| secrets: first scan of ${mb.toFixed(1)} MB (${n.toLocaleString('en')} messages of real text, ${found} found) | ${ms(first)} (${(mb / (first / 1000)).toFixed(1)} MB/s) | read + parse: ${ms(base)} | ${(first / base).toFixed(2)}x |`);
    // An edit: the records are the same objects but one, whose findings are all that is looked for again.
    const { doc } = readDocumentFile(file);
    const records = doc.conversations[0].records.slice();
    await findingsOfRecords(records);
    records[Math.floor(n / 2)] = { ...(records[Math.floor(n / 2)] as object), content: 'edited: PGPASSWORD=Zq8-vLx2-pR4w' };
    const t = performance.now();
    await findingsOfRecords(records);
    const again = performance.now() - t;
    lines.push(`| secrets: again after one message edited (cached per record) | ${ms(again)} | read + parse: ${ms(base)} | ${(again / base).toFixed(3)}x |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
