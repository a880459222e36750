import { EditHistory } from '../../../src/core/editing/history.js';
import type { EditCommand } from '../../../src/core/editing/commands.js';
import type { Codec, ConversationDocument } from '../../../src/core/formats/codec.js';
import type { Message } from '../../../src/core/message.js';
import { childrenOf, forkPoints, forksOf, newestLeafUnder, pathTo, threadsOf, type MessageTree } from '../../../src/core/tree/message-tree.js';
import type { MessageView } from '../../../src/core/formats/model.js';
import { callsOf } from '../../../src/core/usage.js';
import { followLeaf, onFileRecords, replacePath } from '../../../src/core/tree/path-edits.js';
import { defaultLeaf } from '../../../src/core/tree/thread-paths.js';
import { foldedStart, oneLine } from '../../../src/core/util/one-line.js';

/**
 * The conversations an open file shows. A file whose messages make a tree (a Claude Code session: rewinds,
 * sub-agents, compactions) is shown as paths of it: its main thread as the agent resumes it, and each
 * sub-agent's thread; each is a conversation of the app (its rows, its plans, its edits), all of them views of
 * the one list of records the file holds, which a save writes. A flat file is one conversation, its records.
 */

/** The records of one conversation of the file, which several views share, with their one undo history. */
export interface RecordStore {
  /** The conversation of the file (for a dataset, which one). */
  file: number;
  all: Message[];
  saved: Message[];
  history: EditHistory;
  tree: MessageTree;
}

/** Which path of its store a view shows. */
export interface PathView {
  thread: string;
  /** The index among the store's records of the path's last record. */
  leaf: number;
  /** Past compactions too (the whole session), or only since the last one (what the model is sent now). */
  whole: boolean;
  /** Where the path's records are among the store's. */
  path: number[];
}

export interface ViewedConversation {
  records: Message[];
  saved: Message[];
  history: EditHistory;
  store?: RecordStore;
  view?: PathView;
}

function show(conv: ViewedConversation, store: RecordStore, view: PathView): void {
  view.path = view.leaf >= 0 ? pathTo(store.tree, view.leaf, view.whole) : [];
  conv.records = view.path.map((i) => store.all[i]);
  conv.view = view;
}

/** The conversations of a freshly read file: a view per thread for a tree, the records themselves otherwise. */
export function viewsOf(codec: Codec, doc: ConversationDocument): ViewedConversation[] {
  return doc.conversations.flatMap((c, file): ViewedConversation[] => {
    const records = c.records as Message[];
    if (!codec.tree) return [{ records, saved: records.slice(), history: new EditHistory() }];
    const tree = codec.tree(doc, file, records);
    const store: RecordStore = { file, all: records, saved: records.slice(), history: new EditHistory(), tree };
    return threadsOf(tree).map((thread) => {
      const conv: ViewedConversation = { records: [], saved: [], history: store.history, store };
      show(conv, store, { thread, leaf: defaultLeaf(tree, thread), whole: false, path: [] });
      conv.saved = conv.records.slice();
      return conv;
    });
  });
}

/** The file's records of each of its conversations, in its order: what a save writes. */
export function fileRecords(conversations: readonly ViewedConversation[]): Message[][] {
  const out: Message[][] = [];
  const seen = new Set<RecordStore>();
  for (const c of conversations) {
    if (!c.store) out.push(c.records);
    else if (!seen.has(c.store)) {
      seen.add(c.store);
      out[c.store.file] = c.store.all;
    }
  }
  return out;
}

/** Whether a conversation (its store, for a view) holds edits not saved. */
export function viewDirty(c: ViewedConversation): boolean {
  const [now, saved] = c.store ? [c.store.all, c.store.saved] : [c.records, c.saved];
  return now.length !== saved.length || now.some((m, i) => m !== saved[i]);
}

/**
 * After the store's records changed (an edit, an undo, a save read back, a merge), every view of it shows its
 * path again: the same leaf (or what it was edited into, or the newest leaf under it), else the default.
 */
export function reshow(conversations: readonly ViewedConversation[], store: RecordStore, codec: Codec, doc: ConversationDocument): void {
  store.tree = codec.tree!(doc, store.file, store.all);
  for (const c of conversations) {
    if (c.store !== store || !c.view) continue;
    const leaf = followLeaf(store.tree, store.all, c.records, defaultLeaf(store.tree, c.view.thread));
    show(c, store, { ...c.view, leaf });
  }
}

/** Applies an edit of what a conversation shows; for a view, to its store's records (undoable there). */
export function applyToConversation(conversations: readonly ViewedConversation[], c: ViewedConversation, command: EditCommand, codec: Codec, doc: ConversationDocument, label?: string, origin?: string): void {
  if (!c.store || !c.view) {
    c.records = c.history.apply(c.records, command, label, origin);
    return;
  }
  const store = c.store;
  store.all = store.history.apply(store.all, onFileRecords(command, c.view.path, store.all.length), label, origin);
  reshow(conversations, store, codec, doc);
}

/** The history an undo of the conversation steps back in (a view's: its store's one history). */
export const historyOf = (c: ViewedConversation) => (c.store ? c.store.history : c.history);

/** Undo or redo in a conversation (a view's, in its store's one history). */
export function stepHistory(conversations: readonly ViewedConversation[], c: ViewedConversation, step: 'undo' | 'redo', codec: Codec, doc: ConversationDocument): void {
  if (!c.store) {
    const next = step === 'undo' ? c.history.undo(c.records) : c.history.redo(c.records);
    if (next) c.records = next;
    return;
  }
  const store = c.store;
  const next = step === 'undo' ? store.history.undo(store.all) : store.history.redo(store.all);
  if (!next) return;
  store.all = next;
  reshow(conversations, store, codec, doc);
}

/** A view's path set anew: another leaf (a branch), or past compactions or not. */
export function showPath(conversations: readonly ViewedConversation[], c: ViewedConversation, leaf: number, whole: boolean): void {
  if (!c.store || !c.view) return;
  show(c, c.store, { ...c.view, leaf, whole });
  void conversations;
}

/**
 * The view and row that show record `record` of the file's conversation `file` (as the file holds it: a
 * search hit): its thread's path as the file opens when the record is on it (the row search numbered it by),
 * else the path shown now, else the view's path moved onto it (another branch, before a compaction).
 */
export function revealRecord(conversations: readonly ViewedConversation[], file: number, record: number): { conversation: number; index: number } | undefined {
  const flat = conversations.every((c) => !c.store);
  if (flat) return conversations[file] ? { conversation: file, index: record } : undefined;
  const views = conversations.map((c, k) => ({ c, k })).filter(({ c }) => c.store?.file === file && c.view);
  const store = views[0]?.c.store;
  if (!store || record < 0 || record >= store.all.length) return undefined;
  // On a thread's path as the file opens (what search numbers its hits by): that path, whatever is shown now.
  for (const { c, k } of views) {
    const view = c.view!;
    const leaf = defaultLeaf(store.tree, view.thread);
    const index = leaf >= 0 ? pathTo(store.tree, leaf, false).indexOf(record) : -1;
    if (index < 0) continue;
    if (view.leaf !== leaf || view.whole) show(c, store, { ...view, leaf, whole: false });
    return { conversation: k, index };
  }
  const shown = views.find(({ c }) => c.view!.path.includes(record));
  if (shown) return { conversation: shown.k, index: shown.c.view!.path.indexOf(record) };
  const thread = store.tree.thread[record];
  const owner = views.find(({ c }) => c.view!.thread === thread) ?? views[0];
  const view = owner.c.view!;
  // On the path but before its last compaction: the whole session. On another branch: the newest leaf past it.
  const leaf = pathTo(store.tree, view.leaf, true).includes(record) ? view.leaf : newestLeafUnder(store.tree, record, childrenOf(store.tree));
  show(owner.c, store, { ...view, leaf, whole: !pathTo(store.tree, leaf, false).includes(record) });
  const index = owner.c.view!.path.indexOf(record);
  return index >= 0 ? { conversation: owner.k, index } : undefined;
}

/**
 * A compaction (or any rewrite) of what a view shows, as one undoable edit of its file's records; the view then
 * shows the path to the last record of `after` (a compaction's new chain, for Claude Code).
 */
export function replaceShown(conversations: readonly ViewedConversation[], c: ViewedConversation, after: Message[], label: string, codec: Codec, doc: ConversationDocument): void {
  if (!c.store || !c.view) {
    c.records = c.history.apply(c.records, { type: 'replace-all', messages: after, label });
    return;
  }
  const store = c.store;
  store.all = store.history.apply(store.all, { type: 'replace-all', messages: replacePath(store.all, c.view.path, after), label });
  reshow(conversations, store, codec, doc);
  const last = after.length > 0 ? store.all.indexOf(after[after.length - 1]) : -1;
  if (last >= 0) show(c, store, { ...c.view, leaf: last });
}

/** The file's records of its conversation `file` replaced (a restore, a merge), as one undoable edit. */
export function replaceFileRecords(conversations: readonly ViewedConversation[], file: number, records: Message[], label: string, codec: Codec, doc: ConversationDocument): void {
  const store = conversations.find((c) => c.store?.file === file)?.store;
  if (!store) {
    const c = conversations[file];
    if (c) c.records = c.history.apply(c.records, { type: 'replace-all', messages: records, label });
    return;
  }
  store.all = store.history.apply(store.all, { type: 'replace-all', messages: records, label });
  reshow(conversations, store, codec, doc);
}

/** The file's records of the conversation a view shows (itself, for a flat file), and which conversation of the file it is. */
export function fileSideOf(conversations: readonly ViewedConversation[], c: ViewedConversation): { file: number; records: Message[]; saved: Message[] } {
  if (c.store) return { file: c.store.file, records: c.store.all, saved: c.store.saved };
  return { file: conversations.indexOf(c), records: c.records, saved: c.saved };
}

/** After the file's conversations were read again (a save): each view shows the records read, on the same path. */
export function adoptFileRecords(conversations: readonly ViewedConversation[], fresh: readonly Message[][], map: ReadonlyMap<object, Message>, codec: Codec, doc: ConversationDocument): void {
  const stores = new Set<RecordStore>();
  conversations.forEach((c, i) => {
    if (!c.store) {
      c.records = fresh[i] ?? [];
      c.saved = c.records.slice();
      return;
    }
    stores.add(c.store);
    // The path as the records read again: the leaf is found where it was.
    c.records = c.records.map((r) => map.get(r) ?? r);
  });
  for (const store of stores) {
    store.all = (fresh[store.file] ?? []).slice();
    store.saved = store.all.slice();
    reshow(conversations, store, codec, doc);
  }
  for (const c of conversations) if (c.store) c.saved = c.records.slice();
}

const firstText = (r: unknown, view: (r: unknown) => { parts: Array<{ kind: string; text?: string }> }) => {
  const p = view(r).parts.find((x) => x.kind === 'text' && x.text);
  return p?.text !== undefined ? foldedStart(p.text, 80) : undefined;
};

/** What a skeleton says of a tree view: the threads the file shows, where its path forks, and what came before. */
export function treeFields(conversations: readonly ViewedConversation[], conversation: number, view: (r: unknown) => MessageView) {
  const c = conversations[conversation];
  if (!c?.store || !c.view) return {};
  const store = c.store;
  // The threads of this conversation of the file (a dataset's other conversations are not its threads).
  // Sub-agents by their order in the session and their prompt: ids like `a1000000…` do not tell them apart.
  let ordinal = 0;
  const threads = conversations.flatMap((x, k) => {
    if (x.store !== store) return [];
    const thread = x.view?.thread ?? 'main';
    const first = x.records[0] !== undefined ? view(x.records[0]).parts.find((p) => p.kind === 'text' && p.text) : undefined;
    // Its prompt's start, "…" where it is cut (a title cut mid-word read as the whole of it).
    const title = thread === 'main' ? 'Main thread' : `Sub-agent ${++ordinal}${first && 'text' in first ? `: ${oneLine(first.text, 80)}` : ''}`;
    return [{ title, thread, messages: x.records.length, conversation: k }];
  });
  // A sub-agent runs the prompt of its parent's Task call: the call's row opens the thread.
  const main = threads.length > 1 ? conversations.find((x) => x.store === store && x.view?.thread === 'main') : undefined;
  const tasks = new Map<string, number>();
  main?.records.forEach((r, at) => {
    for (const p of view(r).parts) {
      if (p.kind !== 'tool-call' || (p.name !== 'Task' && p.name !== 'Agent') || !p.arguments) continue;
      try {
        const prompt = (JSON.parse(p.arguments) as { prompt?: unknown }).prompt;
        if (typeof prompt === 'string') tasks.set(foldedStart(prompt, 80), at);
      } catch {
        // Arguments that are not JSON name no prompt.
      }
    }
  });
  for (const t of threads) {
    const first = t.thread !== 'main' ? conversations[t.conversation]?.records[0] : undefined;
    const text = first !== undefined ? firstText(first, view) : undefined;
    const at = text !== undefined ? tasks.get(text) : undefined;
    if (at !== undefined) Object.assign(t, { task: at });
  }
  // What tells the options apart where the file says (OASST's labellers' rank).
  const forks = forksOf(store.tree, c.view.path).map((f) => {
    const labels = f.options.map((o) => view(store.all[o]).category ?? '');
    return { at: f.at, options: f.options.length, chosen: f.chosen, ...(f.continued >= 0 ? { continued: f.continued } : {}), ...(labels.some(Boolean) ? { labels } : {}) };
  });
  // Every place the thread forks, shown or not: the count the CLI and the branch tree give.
  const forkCount = forkPoints(store.tree, c.view.thread).length;
  const whole = pathTo(store.tree, c.view.leaf, true);
  const otherBranchUsage = branchUsage(store, c.view.thread, whole, view);
  const session = sessionCount(store, c.view.thread, whole);
  const reattached = store.tree.reattached?.length ?? 0;
  return {
    ...(threads.length > 1 ? { threads } : {}),
    ...(forks.length > 0 ? { forks } : {}),
    ...(forkCount > 0 ? { forkCount } : {}),
    ...(otherBranchUsage.length > 0 ? { otherBranchUsage } : {}),
    ...(reattached > 0 ? { reattached } : {}),
    whole: c.view.whole,
    earlier: c.view.whole ? 0 : whole.length - c.view.path.length,
    ...(!c.view.whole && whole.length > c.view.path.length && store.tree.restarts?.has(c.view.path[0]) ? { earlierBy: store.tree.restarts.get(c.view.path[0]) } : {}),
    session,
  };
}

/**
 * The messages of the session a view's thread is of, as the session list counts them (the catalog: every record
 * of the file's conversation), where the view is of its own thread (the main one, or a sub-agent file's); a
 * sub-agent's thread in its session's file counts its own. With those off the path through its compactions: on
 * its thread's other branches, and in the session's other threads.
 */
function sessionCount(store: RecordStore, thread: string, whole: readonly number[]): { messages: number; branches: number; threads: number } {
  const own = threadsOf(store.tree)[0] === thread;
  const on = new Set(whole);
  let mine = 0;
  let branches = 0;
  store.tree.thread.forEach((t, i) => {
    if (t !== thread) return;
    mine++;
    if (!on.has(i)) branches++;
  });
  return { messages: own ? store.all.length : mine, branches, threads: own ? store.all.length - mine : 0 };
}

/** The calls (each once, its final figures) of a thread's records off the path shown through its compactions: its other branches'. */
function branchUsage(store: RecordStore, thread: string, whole: readonly number[], view: (r: unknown) => MessageView) {
  const on = new Set(whole);
  const off: MessageView[] = [];
  store.all.forEach((r, i) => {
    if (store.tree.thread[i] === thread && !on.has(i)) off.push(view(r));
  });
  const shown = new Set(whole.map((i) => view(store.all[i]).usage?.key).filter((k) => k !== undefined));
  return callsOf(off)
    .filter((c) => c.usage.key === undefined || !shown.has(c.usage.key))
    .map(({ usage: { key: _k, branch: _b, ...u } }) => u);
}

/** The path of a view through another choice at a fork (`at` a position on it, `option` among the fork's). */
export function branchLeaf(c: ViewedConversation, at: number, option: number): number | undefined {
  if (!c.store || !c.view) return undefined;
  const fork = forksOf(c.store.tree, c.view.path).find((f) => f.at === at);
  const node = fork?.options[option];
  return node === undefined ? undefined : newestLeafUnder(c.store.tree, node, childrenOf(c.store.tree));
}
