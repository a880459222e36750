import { basename, extname } from 'node:path';
import { standsIn } from '../../../src/core/tokenizer/estimate.js';
import { conversationModel } from '../documents/counting-model.js';
import { countingModel } from '../../../src/core/models.js';
import { conversationTitles } from '../../../src/core/catalog/titles.js';
import { sessionNameBeside } from '../../../src/core/sessions/name-beside.js';
import { fileThreads, shareTranscript, threadTotals, type Shared, type SharedThread } from '../../../src/core/export/share.js';
import { readDocumentFile } from '../../../src/core/formats/document-file.js';
import type { Codec } from '../../../src/core/formats/codec.js';
import { walkConversationTree } from '../../../src/core/storage/list-directory.js';
import { KnownValues } from '../../../src/core/secrets/known-values.js';
import { fileSafePlaceholder } from '../../../src/core/secrets/redact.js';
import { threadName } from '../../../src/core/tree/thread-paths.js';
import { getTokenizer, resolveEncoding } from '../../../src/core/tokenizer/index.js';
import { countView } from '../../../src/core/views.js';
import type { RequestOutput } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import type { OpenDocument } from '../documents/documents.js';
import type { HandlerContext } from './context.js';
import { openConversation } from './open-document.js';

/** Messages one transcript holds at most (a page past this is better made by the CLI, a file per conversation). */
const MESSAGE_LIMIT = 300_000;

const MIME = { html: 'text/html', markdown: 'text/markdown' } as const;
const EXT = { html: 'html', markdown: 'md' } as const;

/** What a conversation of an open file is called in a transcript: its thread, or its title among the file's. */
function conversationTitle(doc: OpenDocument, conversation: number): string {
  const c = doc.conversations[conversation];
  const fileTitle = doc.file.doc.conversations[c.store?.file ?? conversation]?.title;
  if (c.view) return c.view.thread === 'main' ? 'Main thread' : threadName(c.view.thread);
  return fileTitle ?? (doc.conversations.length > 1 ? `Conversation ${conversation + 1}` : 'Conversation');
}

/** What a folder's transcript says of the links in it that lead out of the opened folders (left out, unread). */
const outsideNote = (n: number) => (n > 0 ? ` (${n} link${n === 1 ? '' : 's'} outside the opened folders left out, not read)` : '');

/** Transcripts to share: of what a conversation shows, of picked messages, of a whole file or folder. */
export function shareHandlers(ctx: HandlerContext): Pick<Handlers, 'share:export' | 'share:export-folder'> {
  // Counted for the conversation's model where the setting is the session's own (a folder: the default).
  const options = (to: 'html' | 'markdown', redact: boolean, paths: boolean, absolute?: string, model = countingModel(ctx.settings.get().model, undefined)) => {
    const tokenizer = getTokenizer(model);
    return {
      to,
      redact,
      paths,
      ...(absolute ? { dismissed: ctx.dismissed.of(absolute) } : {}),
      known: new KnownValues(),
      count: (v: Parameters<typeof countView>[0]) => countView(v, tokenizer).tokens,
      // An estimate says so: "o200k_base stands in for claude-opus-4-6".
      countedWith: standsIn(resolveEncoding(model)) ?? resolveEncoding(model).encoding,
      prices: ctx.settings.get().prices ?? {},
    };
  };
  const answer = (shared: Shared, name: string, to: 'html' | 'markdown', messages: number, known?: KnownValues): RequestOutput<'share:export'> => {
    // The file's name says no more than the page (a folder named after a home folder: -home-<name>-shop).
    const filename = known ? known.redact(name, fileSafePlaceholder).text : name;
    return {
      filename,
      text: shared.text,
      mime: MIME[to],
      ...(shared.report !== undefined ? { report: { filename: `${filename}.redactions.txt`, text: shared.report } } : {}),
      redacted: shared.redactions.length,
      messages,
    };
  };
  const share = async (codec: Codec, threads: SharedThread[], meta: { title: string; source: string; format: string }, opts: ReturnType<typeof options>) => {
    const messages = threads.reduce((n, t) => n + t.records.length, 0);
    if (messages > MESSAGE_LIMIT) throw new HandlerError('TOO_LARGE', `${messages.toLocaleString('en')} messages are more than one page can hold; the command line writes a transcript per file: conversation-inspector export ${meta.source} --to ${opts.to === 'html' ? 'html' : 'md'} -o OUT`);
    return { shared: await shareTranscript(codec, threads, meta, opts), messages };
  };

  return {
    'share:export': async ({ path, conversation, to, scope, indexes, redact, paths }) => {
      const { absolute, doc, conv } = openConversation(ctx, path, conversation);
      const stem = basename(doc.path, extname(doc.path));
      let threads: SharedThread[];
      let suffix = '';
      // A whole conversation carries the totals its tool reported per run, as the app's header adds them up.
      const whole = (i: number, records: readonly unknown[]) => {
        const totals = threadTotals({ codec: doc.codec, doc: doc.file.doc }, i, records);
        return totals ? { totals } : {};
      };
      if (scope === 'file') threads = doc.conversations.map((c, i) => ({ title: conversationTitle(doc, i), records: c.records, ...whole(i, c.records) }));
      else if (scope === 'selection') {
        const picked = [...new Set(indexes ?? [])].sort((a, b) => a - b);
        if (picked.length === 0) throw new HandlerError('BAD_INPUT', 'no messages picked: select or mark the messages to share');
        for (const i of picked) if (i >= conv.records.length) throw new HandlerError('BAD_INPUT', `message ${i} does not exist (${conv.records.length} messages)`);
        threads = [{ title: conversationTitle(doc, conversation), records: picked.map((i) => conv.records[i]), numbers: picked }];
        suffix = `-${picked.length}-messages`;
      } else {
        threads = [{ title: conversationTitle(doc, conversation), records: conv.records, ...whole(conv.store?.file ?? conversation, conv.records) }];
        if (doc.conversations.length > 1) suffix = conv.view ? `-${conv.view.thread.replace(/^side:/, '').replace(/[^\w.-]+/g, '-')}` : `-${conversation + 1}`;
      }
      const title = (doc.file.doc.conversations.length === 1 ? sessionNameBeside(absolute) : undefined) ?? conversationTitles(doc.codec, doc.file.doc)[conv.store?.file ?? conversation] ?? basename(doc.path);
      const opts = options(to, redact, paths, absolute, conversationModel(ctx, doc, conv));
      const { shared, messages } = await share(doc.codec, threads, { title, source: ctx.roots.display(doc.path), format: doc.codec.label }, opts);
      return answer(shared, `${stem}${suffix}.${EXT[to]}`, to, messages, redact ? opts.known : undefined);
    },
    'share:export-folder': async ({ to, redact, paths }) => {
      const root = ctx.roots.root();
      const { files, outside } = walkConversationTree(root, { within: ctx.roots.all() });
      const threads: SharedThread[] = [];
      const skipped: string[] = [];
      let codec: Codec | undefined;
      for (const f of files) {
        let opened;
        try {
          opened = readDocumentFile(f.file);
        } catch {
          skipped.push(f.path);
          continue;
        }
        codec ??= opened.codec;
        for (const t of fileThreads(opened, 'all')) threads.push({ ...t, title: `${f.path} · ${t.title}`, codec: opened.codec });
      }
      if (!codec) throw new HandlerError('NOT_FOUND', `${root} holds no conversation this tool reads`);
      const opts = options(to, redact, paths);
      const { shared, messages } = await share(codec, threads, { title: basename(root), source: root, format: `${files.length - skipped.length} files${skipped.length ? ` (${skipped.length} not read: ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? '…' : ''})` : ''}${outsideNote(outside.length)}` }, opts);
      return answer(shared, `${basename(root)}.${EXT[to]}`, to, messages, redact ? opts.known : undefined);
    },
  };
}
