import { existsSync, mkdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { countView } from '../core/views.js';
import { getTokenizer, resolveEncoding } from '../core/tokenizer/index.js';
import { listConversationFiles } from '../core/storage/list-directory.js';
import { writeFileAtomicSync } from '../core/storage/atomic-write.js';
import { ConversationFileError } from '../core/formats/errors.js';
import type { OpenedFile } from '../core/formats/document-file.js';
import { masked, scanDocument, type DocumentFinding } from '../core/secrets/document-scan.js';
import { findingsReport } from '../core/secrets/redact.js';
import { DismissedFindings } from '../core/secrets/dismissed-store.js';
import { findingKey } from '../core/secrets/record-findings.js';
import { userStateDir } from '../core/storage/private-dir.js';
import { fileThreads, NoSuchThreadError, shareTranscript, type SharedThread } from '../core/export/share.js';
import { open } from './commands.js';
import { InputError, UsageError } from './usage.js';

const printJson = (v: unknown) => process.stdout.write(JSON.stringify(v, null, 2) + '\n');

/** `scan DIR|FILE`: every secret and personal datum found, by file, masked. */
export async function scanCommand(target: string, opts: { json?: boolean; format?: string }): Promise<void> {
  const path = resolve(target);
  if (!existsSync(path)) throw new InputError(`${target}: no such file or directory`);
  const files = statSync(path).isDirectory() ? listConversationFiles(path).entries.filter((e) => !e.error).map((e) => ({ file: e.file, shown: e.path })) : [{ file: path, shown: target }];
  const out: Array<{ path: string; conversations: number; findings: DocumentFinding[] }> = [];
  const errors: Array<{ path: string; message: string }> = [];
  const dismissals = dismissedFindings();
  let kept = 0;
  for (const f of files) {
    let opened: OpenedFile;
    try {
      opened = open(f.file, opts.format);
    } catch (e) {
      errors.push({ path: f.shown, message: e instanceof ConversationFileError ? e.reason : (e as Error).message });
      continue;
    }
    const dismissed = dismissals.of(f.file);
    const all = await scanDocument(opened.doc);
    const findings = all.filter((x) => !dismissed.has(findingKey(x.rule, x.value)));
    kept += all.length - findings.length;
    if (findings.length > 0) out.push({ path: f.shown, conversations: opened.doc.conversations.length, findings });
  }
  if (opts.json) {
    printJson({
      scanned: files.length,
      files: out.map((f) => ({ path: f.path, findings: f.findings.map((x) => ({ rule: x.rule, label: x.label, kind: x.kind, where: x.where, start: x.start, end: x.end, excerpt: masked(x.value), key: findingKey(x.rule, x.value) })) })),
      dismissed: kept,
      errors,
    });
    return;
  }
  const total = out.reduce((n, f) => n + f.findings.length, 0);
  for (const f of out) process.stdout.write(findingsReport(f.path, f.findings, f.conversations, false) + '\n');
  for (const e of errors) process.stderr.write(`${e.path}: not scanned: ${e.message}\n`);
  process.stdout.write(`${total} finding${total === 1 ? '' : 's'} in ${out.length} of ${files.length} file${files.length === 1 ? '' : 's'} scanned${kept > 0 ? `; ${kept} dismissed in the app as false positives not listed` : ''}${total > 0 ? ' (secrets and personal data, masked; `export` gives a redacted transcript)' : ''}\n`);
}

interface ExportOptions {
  to?: string;
  output?: string;
  /** Off only when asked (`--no-redact`): a shared transcript is redacted by default. */
  redact?: boolean;
  conversation?: string;
  thread?: string;
  model: string;
  format?: string;
}

/** Findings dismissed in the app as false positives (the CLI keeps them as the app does). */
const dismissedFindings = () => new DismissedFindings(join(userStateDir(), 'dismissed-findings'));

/** One file as a transcript (and, redacted, its report). */
async function transcriptOf(file: string, shown: string, opts: ExportOptions, dismissed: DismissedFindings): Promise<{ text: string; report?: string }> {
  const opened = open(file, opts.format);
  const n = opened.doc.conversations.length;
  const which = opts.conversation === undefined ? Array.from({ length: n }, (_, i) => i) : [Number(opts.conversation)];
  if (which.some((c) => !Number.isInteger(c) || c < 0 || c >= n)) throw new UsageError(`--conversation takes 0 to ${n - 1}`, { brief: true });
  const tokenizer = getTokenizer(opts.model);
  let threads: SharedThread[];
  try {
    threads = fileThreads(opened, opts.thread, which);
  } catch (e) {
    if (e instanceof NoSuchThreadError) throw new UsageError(`--thread takes main, all or one of ${e.threads.join(', ') || '(no sub-agent threads)'}`, { brief: true });
    throw e;
  }
  const title = which.length === 1 && opened.doc.conversations[which[0]]?.title ? opened.doc.conversations[which[0]].title! : basename(shown);
  const shared = await shareTranscript(opened.codec, threads, { title, source: shown, format: opened.codec.label }, {
    to: opts.to === 'html' ? 'html' : 'markdown',
    redact: opts.redact !== false,
    dismissed: dismissed.of(file),
    count: (v) => countView(v, tokenizer).tokens,
    countedWith: resolveEncoding(opts.model).encoding,
  });
  return { text: shared.text, ...(shared.report !== undefined ? { report: shared.report } : {}) };
}

/**
 * `export FILE|DIR --to html|md [--redact] [-o OUT]`: a transcript worth reading (a self-contained HTML page,
 * or Markdown) of one file's conversations (a session's main thread; `--thread all` every thread), or of every
 * file of a folder (OUT is then a folder: a transcript per file and an index). Redacted unless `--no-redact`:
 * every secret and personal datum found replaced by [REDACTED:<rule>], the report beside (OUT.redactions.txt).
 */
export async function exportCommand(target: string, opts: ExportOptions): Promise<void> {
  if (opts.to !== 'html' && opts.to !== 'md' && opts.to !== 'markdown') throw new UsageError('export needs --to html or --to md', { brief: true });
  const ext = opts.to === 'html' ? '.html' : '.md';
  const path = resolve(target);
  if (!existsSync(path)) throw new InputError(`${target}: no such file or directory`);
  const dismissed = dismissedFindings();
  if (!statSync(path).isDirectory()) {
    const { text, report } = await transcriptOf(path, target, opts, dismissed);
    if (!opts.output) {
      process.stdout.write(text);
      if (report) process.stderr.write(report);
      return;
    }
    writeFileAtomicSync(opts.output, text);
    if (report !== undefined) writeFileAtomicSync(`${opts.output}.redactions.txt`, report);
    process.stderr.write(`wrote ${opts.output}${report !== undefined ? ` and ${opts.output}.redactions.txt` : ''}\n`);
    return;
  }
  if (!opts.output) throw new UsageError('export of a folder needs -o OUTDIR (a transcript per file is written there)', { brief: true });
  const out = resolve(opts.output);
  mkdirSync(out, { recursive: true });
  const { entries } = listConversationFiles(path);
  const written: Array<{ href: string; title: string }> = [];
  const reports: string[] = [];
  for (const e of entries) {
    if (e.error) continue;
    const { text, report } = await transcriptOf(e.file, e.path, { ...opts, conversation: undefined }, dismissed);
    const rel = `${e.path.replace(extname(e.path), '')}${ext}`;
    mkdirSync(dirname(join(out, rel)), { recursive: true });
    writeFileAtomicSync(join(out, rel), text);
    written.push({ href: rel, title: e.path });
    if (report) reports.push(report);
  }
  const index = opts.to === 'html' ? `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>${basename(path)}</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1.5rem}</style></head><body><h1>${basename(path)}</h1><ul>${written.map((w) => `<li><a href="${encodeURI(w.href)}">${w.title.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</a></li>`).join('')}</ul></body></html>\n` : `# ${basename(path)}\n\n${written.map((w) => `- [${w.title}](${encodeURI(w.href)})`).join('\n')}\n`;
  writeFileAtomicSync(join(out, `index${ext}`), index);
  if (opts.redact !== false) writeFileAtomicSync(join(out, 'redactions.txt'), reports.join('\n'));
  process.stderr.write(`wrote ${written.length} transcript${written.length === 1 ? '' : 's'} and an index to ${relative(process.cwd(), out) || out}${opts.redact !== false ? ' (and redactions.txt)' : ''}\n`);
}

