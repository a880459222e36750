import { resolve } from 'node:path';
import type { OpenedFile } from '../core/formats/document-file.js';
import type { MessageView } from '../core/formats/model.js';
import { threadsOf } from '../core/tree/message-tree.js';
import { otherBranchRecords } from '../core/tree/thread-paths.js';
import { addUp, callsOf, type UsageReport } from '../core/usage.js';
import { ownerOf, threadFileNamed, threadFilesOf, type ThreadFile, type ThreadOwner } from '../core/sessions/thread-files.js';

/**
 * A session's threads that are files of their own (Claude Code's sub-agent files, Codex's child rollouts), as the
 * CLI shows them: listed with the session, shown by `--thread ID`, added in by `--thread all`, their calls counted
 * in the session's usage. And the other way: a thread's own file says whose it is.
 */

/** Every record of the file's conversations (a sub-agent's call and its result may be anywhere in them). */
const everyRecord = (opened: OpenedFile) => opened.doc.conversations.flatMap((c) => c.records);

/** The session file's threads in files of their own. */
export function sessionThreadFiles(file: string, opened: OpenedFile): ThreadFile[] {
  return threadFilesOf(resolve(file), opened.codec.id, everyRecord(opened));
}

/** The thread ids the file holds itself (a 1.x session's inline sub-agents), as `--thread` takes them. */
export function ownThreads(opened: OpenedFile): string[] {
  return opened.doc.conversations.flatMap((c, k) => (opened.codec.tree ? threadsOf(opened.codec.tree(opened.doc, k, c.records)).map((t) => t.replace(/^side:/, '')) : []));
}

/**
 * `--thread ID` naming a thread that is a file of its own rather than one of the file's: that file. Undefined
 * when the file holds the thread itself (or nothing names one).
 */
export function threadFileAsked(opened: OpenedFile, files: readonly ThreadFile[], wanted: string | undefined): ThreadFile | undefined {
  if (wanted === undefined || wanted === 'all' || files.length === 0) return undefined;
  const own = ownThreads(opened);
  if (own.some((t) => t === wanted || t.startsWith(wanted))) return undefined;
  return threadFileNamed(files, wanted);
}

/** Whose thread a file is, with the call of the session that started it where the session's file says. */
export function ownerWithCall(file: string, opened: OpenedFile, openFile: (f: string) => OpenedFile): (ThreadOwner & { callId?: string }) | undefined {
  const owner = ownerOf(resolve(file), opened.codec.id);
  if (!owner?.file) return owner;
  try {
    const session = openFile(owner.file);
    const mine = sessionThreadFiles(owner.file, session).find((t) => t.thread === owner.thread || resolve(t.file) === resolve(file));
    return mine?.callId ? { ...owner, callId: mine.callId } : owner;
  } catch {
    return owner;
  }
}

/** One thread's calls in the session's usage. */
export interface ThreadUsage {
  thread: string;
  /** The thread's own file, when it is not the session's. */
  file?: string;
  kind?: string;
  usage: UsageReport;
}

/**
 * Every call of the session, whatever is shown: each thread of its file (the branches it did not go on with
 * marked) and each thread file's, each call once (by its key: a call written in two files is one call), and
 * the same per thread. Undefined when no call records usage.
 */
export function sessionCalls(opened: OpenedFile, children: ReadonlyArray<{ thread: ThreadFile; opened: OpenedFile }>): { total: UsageReport; threads: ThreadUsage[] } | undefined {
  const views: MessageView[] = [];
  const branch: boolean[] = [];
  const threadOf: string[] = [];
  let files = 0;
  const add = (o: OpenedFile, label: (thread: string) => string) => {
    // A call's key is the API's own id in a Claude Code file (one call, whichever file writes it); in others it
    // may be the file's own (Codex: its line), so each file's are its own.
    const scope = o.codec.id === 'claude-code' ? '' : `${files++}\u0000`;
    for (const [k, c] of o.doc.conversations.entries()) {
      const tree = o.codec.tree?.(o.doc, k, c.records);
      const off = tree ? otherBranchRecords(tree) : undefined;
      for (const [i, r] of c.records.entries()) {
        const v = o.codec.view(r);
        views.push(scope && v.usage?.key !== undefined ? { ...v, usage: { ...v.usage, key: scope + v.usage.key } } : v);
        branch.push(off?.[i] === 1);
        threadOf.push(label(tree ? tree.thread[i].replace(/^side:/, '') : 'main'));
      }
    }
  };
  add(opened, (t) => t);
  for (const ch of children) add(ch.opened, () => `\u0000${ch.thread.thread}`);
  const calls = callsOf(views, (i) => branch[i]);
  const total = addUp(calls.map((c) => c.usage));
  if (!total) return undefined;
  const order: string[] = [];
  const byThread = new Map<string, typeof calls>();
  for (const c of calls) {
    const t = threadOf[c.at];
    if (!byThread.has(t)) {
      byThread.set(t, []);
      order.push(t);
    }
    byThread.get(t)!.push(c);
  }
  const byFile = new Map(children.map((ch) => [`\u0000${ch.thread.thread}`, ch.thread]));
  const threads = order.map((t): ThreadUsage => {
    const f = byFile.get(t);
    const usage = addUp(byThread.get(t)!.map((c) => c.usage))!;
    return f ? { thread: f.thread, file: f.file, kind: f.kind, usage } : { thread: t, usage };
  });
  return { total, threads };
}
