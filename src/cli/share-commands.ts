import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { standsIn } from '../core/tokenizer/estimate.js';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { countView } from '../core/views.js';
import { getTokenizer, resolveEncoding } from '../core/tokenizer/index.js';
import { listConversationFiles } from '../core/storage/describe-files.js';
import { writeFileAtomicSync } from '../core/storage/atomic-write.js';
import { ConversationFileError } from '../core/formats/errors.js';
import { masked, scanDocument, unescapedJsonText, type DocumentFinding } from '../core/secrets/document-scan.js';
import { scanUnits } from '../core/secrets/scan.js';
import { fileSafePlaceholder, findingsReport } from '../core/secrets/redact.js';
import { DismissedFindings } from '../core/secrets/dismissed-store.js';
import { KnownValues } from '../core/secrets/known-values.js';
import { findingKey } from '../core/secrets/record-findings.js';
import { privateStateDir } from '../core/storage/private-dir.js';
import { fileThreads, NoSuchThreadError, shareTranscript, type SharedThread } from '../core/export/share.js';
import { open } from './commands.js';
import { sessionThreadFiles, threadFileAsked } from './session-threads.js';
import { threadFileTitle, ownerOf } from '../core/sessions/thread-files.js';
import { outsideLinksNote } from './output.js';
import { conversationTitles } from '../core/catalog/titles.js';
import { sessionNameBeside } from '../core/sessions/name-beside.js';
import { InputError, UsageError } from './usage.js';

const printJson = (v: unknown) => process.stdout.write(JSON.stringify(v, null, 2) + '\n');

/** `scan DIR|FILE`: every secret and personal datum found, by file, masked. */
export async function scanCommand(target: string, opts: { json?: boolean; format?: string }): Promise<void> {
  const path = resolve(target);
  if (!existsSync(path)) throw new InputError(`${target}: no such file or directory`);
  const listed = statSync(path).isDirectory() ? listConversationFiles(path) : undefined;
  const files: Array<{ file: string; shown: string; error?: { message: string; line?: number; column?: number } }> = listed
    ? listed.entries.map((e) => ({ file: e.file, shown: e.path, ...(e.error ? { error: { message: e.error, ...(e.errorLine !== undefined ? { line: e.errorLine } : {}), ...(e.errorColumn !== undefined ? { column: e.errorColumn } : {}) } } : {}) }))
    : [{ file: path, shown: target }];
  const outside = listed?.outside.map((l) => l.path) ?? [];
  const out: Array<{ path: string; conversations: number; findings: DocumentFinding[] }> = [];
  const errors: Array<{ path: string; message: string; line?: number; column?: number }> = [];
  const dismissals = dismissedFindings();
  let kept = 0;
  for (const f of files) {
    const dismissed = dismissals.of(f.file);
    let all: DocumentFinding[];
    let conversations = 0;
    try {
      // The listing's own reading of it (the line and column of what is wrong) is what is said.
      if (f.error) throw new ConversationFileError(f.file, f.error.message, f.error.line !== undefined ? { line: f.error.line, column: f.error.column ?? 1 } : undefined);
      const opened = open(f.file, opts.format);
      all = await scanDocument(opened.doc);
      conversations = opened.doc.conversations.length;
    } catch (e) {
      // A file no reader takes may still hold secrets: its text is looked into as it is, and it is said.
      const err = e instanceof ConversationFileError ? e : undefined;
      errors.push({ path: f.shown, message: err ? err.reason : (e as Error).message, ...(err?.line !== undefined ? { line: err.line } : {}), ...(err?.column !== undefined ? { column: err.column } : {}) });
      all = await scanRawFile(f.file);
    }
    const findings = all.filter((x) => !dismissed.has(findingKey(x.rule, x.value)));
    kept += all.length - findings.length;
    if (findings.length > 0) out.push({ path: f.shown, conversations, findings });
  }
  // A file that could not be read is a failure of the scan (exit 1), whatever its text held.
  if (errors.length > 0) process.exitCode = 1;
  if (opts.json) {
    printJson({
      scanned: files.length,
      files: out.map((f) => ({ path: f.path, findings: f.findings.map((x) => ({ rule: x.rule, label: x.label, kind: x.kind, where: x.where, start: x.start, end: x.end, excerpt: masked(x.value), key: findingKey(x.rule, x.value) })) })),
      dismissed: kept,
      errors,
      outside,
    });
    return;
  }
  outsideLinksNote(outside.length, target);
  const total = out.reduce((n, f) => n + f.findings.length, 0);
  for (const f of out) process.stdout.write(findingsReport(f.path, f.findings, f.conversations, false) + '\n');
  for (const e of errors) process.stderr.write(`${e.path}${e.line !== undefined ? `:${e.line}${e.column !== undefined ? `:${e.column}` : ''}` : ''}: not read (${e.message}); its text was looked into as it is\n`);
  process.stdout.write(`${total} finding${total === 1 ? '' : 's'} in ${out.length} of ${files.length} file${files.length === 1 ? '' : 's'} scanned${errors.length > 0 ? ` (${errors.length} not readable as a conversation, their text looked into as it is)` : ''}${kept > 0 ? `; ${kept} dismissed in the app as false positives not listed` : ''}${total > 0 ? ' (secrets and personal data, masked; `export` gives a redacted transcript)' : ''}\n`);
}

/** What a file no reader takes holds, looked into as its text (each line a place, by its number). */
async function scanRawFile(file: string): Promise<DocumentFinding[]> {
  let text: string;
  try {
    if (statSync(file).size > RAW_SCAN_LIMIT) return [];
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n');
  const found = await scanUnits(lines.map((l, i) => ({ text: unescapedJsonText(l), where: i + 1 })));
  return found.map((f) => ({ ...f, where: { other: true as const, line: f.where, path: [] }, key: findingKey(f.rule, f.value) }));
}

/** Files past this size that no reader takes are not looked into as text (a binary, a database). */
const RAW_SCAN_LIMIT = 64 * 1024 * 1024;

interface ExportOptions {
  to?: string;
  output?: string;
  /** Off only when asked (`--no-redact`): a shared transcript is redacted by default. */
  redact?: boolean;
  /** Off only when asked (`--keep-paths`): user names in paths are replaced by <user>. */
  paths?: boolean;
  conversation?: string;
  thread?: string;
  model: string;
  format?: string;
}

/** Findings dismissed in the app as false positives (the CLI keeps them as the app does). */
const dismissedFindings = () => new DismissedFindings(join(privateStateDir(), 'dismissed-findings'));

/** One file as a transcript (and, redacted, its report). */
async function transcriptOf(file: string, shown: string, opts: ExportOptions, dismissed: DismissedFindings, known?: KnownValues): Promise<{ text: string; report?: string }> {
  const opened = open(file, opts.format);
  const n = opened.doc.conversations.length;
  const which = opts.conversation === undefined ? Array.from({ length: n }, (_, i) => i) : [Number(opts.conversation)];
  if (which.some((c) => !Number.isInteger(c) || c < 0 || c >= n)) throw new UsageError(`--conversation takes 0 to ${n - 1}`, { brief: true });
  const tokenizer = getTokenizer(opts.model);
  // The session's threads in files of their own: `--thread ID` is one of them, `--thread all` adds each, titled by its name.
  const files = sessionThreadFiles(file, opened);
  const asked = threadFileAsked(opened, files, opts.thread);
  const ofFile = (t: (typeof files)[number], thread: string | undefined): SharedThread[] => {
    const o = open(t.file, undefined);
    const title = threadFileTitle(t);
    const own = fileThreads(o, thread);
    return own.map((x) => ({ ...x, title: own.length === 1 ? `${title[0].toUpperCase()}${title.slice(1)}` : `${title} · ${x.title}`, codec: o.codec }));
  };
  let threads: SharedThread[];
  try {
    threads = asked ? ofFile(asked, undefined) : fileThreads(opened, opts.thread, which);
  } catch (e) {
    if (e instanceof NoSuchThreadError) throw new UsageError(`--thread takes main, all or one of ${[...e.threads, ...files.map((t) => t.thread)].join(', ') || '(no sub-agent threads)'}`, { brief: true });
    throw e;
  }
  if (opts.thread === 'all') for (const t of files) for (const x of ofFile(t, 'all')) threads.push(x);
  // Titled as the session list titles it: the file's own title, else its first prompt (not a file name).
  const named = (which.length === 1 ? (sessionNameBeside(file) ?? conversationTitles(opened.codec, opened.doc)[which[0]]) : undefined) ?? basename(shown);
  const title = asked ? `${threads[0]?.title ?? threadFileTitle(asked)} of ${named}` : named;
  const shared = await shareTranscript(opened.codec, threads, { title, source: shown, format: opened.codec.label }, {
    to: opts.to === 'html' ? 'html' : 'markdown',
    redact: opts.redact !== false,
    paths: opts.paths !== false,
    ...(known ? { known } : {}),
    dismissed: dismissed.of(file),
    count: (v) => countView(v, tokenizer).tokens,
    countedWith: standsIn(resolveEncoding(opts.model)) ?? resolveEncoding(opts.model).encoding,
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
  const { entries, outside } = listConversationFiles(path);
  outsideLinksNote(outside.length, target);
  const written: Array<{ href: string; title: string }> = [];
  const reports: string[] = [];
  // One set of values found for the whole export: a key found in one file is redacted in every other.
  const known = new KnownValues();
  const skipped: string[] = [];
  // With --thread all a session's thread files are in its transcript: not written again on their own.
  const listed = new Set(entries.map((e) => resolve(e.file)));
  const inSession = (e: (typeof entries)[number]) => {
    if (opts.thread !== 'all' || !e.format) return false;
    const owner = ownerOf(resolve(e.file), e.format);
    return owner?.file !== undefined && listed.has(resolve(owner.file));
  };
  for (const e of entries) {
    if (e.error || inSession(e)) continue;
    let made;
    try {
      made = await transcriptOf(e.file, e.path, { ...opts, conversation: undefined }, dismissed, known);
    } catch (err) {
      // One file without the thread asked for (a session of summaries alone has none) stops no other file.
      if (!(err instanceof UsageError)) throw err;
      skipped.push(`${e.path}: ${err.message}`);
      continue;
    }
    const { text, report } = made;
    // The transcript's own name says no more than it does (Claude Code's folders spell the home folder: -home-<name>-…).
    const name = opts.redact !== false ? known.redact(e.path, fileSafePlaceholder).text : e.path;
    const rel = `${name.replace(extname(name), '')}${ext}`;
    mkdirSync(dirname(join(out, rel)), { recursive: true });
    writeFileAtomicSync(join(out, rel), text);
    written.push({ href: rel, title: name });
    if (report) reports.push(report);
  }
  if (opts.redact !== false) {
    // Transcripts written before a value was found in a later file: what they hold of it goes now.
    for (const w of written) {
      const file = join(out, w.href);
      const again = known.redactRendered(readFileSync(file, 'utf8'), ext === '.html');
      if (again.replaced.length === 0) continue;
      writeFileAtomicSync(file, again.text);
      reports.push(`${w.title}: ${again.replaced.length} more replaced, values found in other files of the folder\n${again.replaced.map((k) => `  ${k.label} ${masked(k.value)}`).join('\n')}\n`);
    }
  }
  const index = opts.to === 'html' ? `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>${basename(path)}</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1.5rem}</style></head><body><h1>${basename(path)}</h1><ul>${written.map((w) => `<li><a href="${encodeURI(w.href)}">${w.title.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</a></li>`).join('')}</ul></body></html>\n` : `# ${basename(path)}\n\n${written.map((w) => `- [${w.title}](${encodeURI(w.href)})`).join('\n')}\n`;
  writeFileAtomicSync(join(out, `index${ext}`), index);
  if (opts.redact !== false) writeFileAtomicSync(join(out, 'redactions.txt'), reports.join('\n'));
  for (const s of skipped) process.stderr.write(`note: not exported: ${s}\n`);
  process.stderr.write(`wrote ${written.length} transcript${written.length === 1 ? '' : 's'} and an index to ${relative(process.cwd(), out) || out}${opts.redact !== false ? ' (and redactions.txt)' : ''}\n`);
}

