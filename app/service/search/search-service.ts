import { existsSync, readFileSync, statSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { writePrivateFileSync } from '../../../src/core/storage/private-dir.js';
import { readDocumentFile } from '../../../src/core/formats/document-file.js';
import { walkConversationTree } from '../../../src/core/storage/list-directory.js';
import { bestTermMatch, buildSegment, comparePaths, matcherOf, queryTerms, readableSnippet, searchableMessages, SearchIndex, type KeptIndex, type SearchableMessage } from '../../../src/core/search/index.js';
import { scanWithRegex } from './regex-scan.js';
import { searchableAsShown, shownFields } from './shown-rows.js';
import type { Roots } from '../roots.js';
import { DEFAULT_MAX_FILE_BYTES } from '../../../src/core/formats/types.js';
import { codecById } from '../../../src/core/formats/registry.js';
import { partPath, splitPartPath } from '../../../src/core/storage/file-parts.js';
import { PART_BYTES, partsToRead, readPartDocument } from '../parts/parted-files.js';
import { nextTurn } from '../next-turn.js';

export interface SearchRequest {
  query: string;
  /** Lines are found for the hits until this much time has gone (the rest come from `snippets`). */
  snippetMs?: number;
  regex?: boolean;
  roles?: string[];
  formats?: string[];
  limit?: number;
}

export interface FoundMessage {
  path: string;
  format: string;
  conversation: number;
  index: number;
  role: string;
  /** The matching line, where it is known yet (see `snippets`). */
  snippet?: string;
  match?: [number, number];
  /** Where the table shows it, where that differs from the file's order (known with the line). */
  shown?: { conversation: number; index: number } | null;
  /** Why, where `shown` is null: before a compaction of its thread, or on a branch its thread left. */
  offPath?: 'earlier' | 'branch';
  /** The role as the file (and the table) spells it, where it is not `role` (known with the line). */
  spelled?: string;
}

/** Where the document service reads files a part at a time, and how big the parts are. */
export interface Parting {
  maxFileBytes: number;
  partBytes: number;
}

export interface SearchStatus {
  files: number;
  messages: number;
  /** Files still to be read into the index. */
  pending: number;
  building: boolean;
}

export interface SearchAnswer {
  query: string;
  hits: FoundMessage[];
  total: number;
  files: number;
  /** Counting stopped (past 50,000 matches, or a regex scan out of time): total and files are lower bounds. */
  atLeast: boolean;
  /** Matches in each file with hits listed (for a regex scan, the hits listed). */
  fileTotals: Record<string, number>;
  /** More matched than are listed (or a regex scan stopped at its time limit). */
  truncated: boolean;
  /** A regex scan stopped at its time limit, this many ms: the files (and messages) after were not searched. */
  outOfTime?: number;
  status: SearchStatus;
}

// 2: `_` separates words.
const KEPT_VERSION = 3;
/** Texts of files read for snippets, kept for the next query (typing asks again at every key). */
const TEXT_CACHE_FILES = 64;

/** Past this many matches an answer stops counting (and says "at least"): the count is what costs. */
const COUNT_LIMIT = 50_000;
/** An answer is sent by this time after it is asked, lookup and lines together: lines not found by then follow. */
const ANSWER_MS = 80;
/** However long the lookup took, this long goes to finding lines (the first files, at least). */
const MIN_SNIPPET_MS = 5;

/** The message at (conversation, index) of a file's messages, which are in that order. */
function messageAt(messages: readonly SearchableMessage[], conversation: number, index: number): SearchableMessage | undefined {
  let lo = 0;
  let hi = messages.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = messages[mid];
    const c = m.conversation - conversation || m.index - index;
    if (c === 0) return m;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}


/**
 * Search across every conversation under the opened folders: an index built in the background at the first
 * search (files read one at a time, between other requests), kept between runs, and brought up to date by
 * the watchers' reports. Paths in the index are absolute; answers name files as the renderer does.
 */
export class SearchService {
  private index = new SearchIndex();
  private pending = new Set<string>();
  private building: Promise<void> | undefined;
  private started = false;
  private closed = false;
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  private readonly texts = new Map<string, { size: number; mtimeMs: number; messages: SearchableMessage[] }>();
  onProgress: (status: SearchStatus) => void = () => {};

  /** How many parts each file read a part at a time has in the index (its segments are its parts'). */
  private readonly parted = new Map<string, number>();

  constructor(
    private readonly roots: Roots,
    private readonly keptFile: string | false,
    /** Past `maxFileBytes` a session log is read a part at a time, as the document service reads it. */
    private readonly parting: Parting = { maxFileBytes: DEFAULT_MAX_FILE_BYTES, partBytes: PART_BYTES },
  ) {}

  /** Whether the index holds the file as it is now (a file read a part at a time: its first part's segment). */
  private indexed(file: string, size: number, mtimeMs: number): boolean {
    return this.index.has(size > this.parting.maxFileBytes ? partPath(file, 1) : file, size, mtimeMs);
  }

  /** Drops a file's segments, its parts' too. */
  private drop(file: string): boolean {
    let had = this.index.remove(file);
    for (let n = 1; n <= (this.parted.get(file) ?? 0); n++) had = this.index.remove(partPath(file, n)) || had;
    this.parted.delete(file);
    return had;
  }

  status(): SearchStatus {
    const { files, messages } = this.index.size;
    // A file read a part at a time is one file, however many parts' segments it has.
    let parts = 0;
    for (const n of this.parted.values()) parts += n - 1;
    return { files: files - parts, messages, pending: this.pending.size, building: this.building !== undefined };
  }

  /** Starts the index (once): the kept one loaded, then every file not in it as it is read. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.load();
    const seen = new Set<string>();
    for (const root of this.roots.all()) {
      for (const f of walkConversationTree(root, { within: this.roots.all() }).files) {
        seen.add(f.file);
        if (!this.indexed(f.file, f.bytes, f.modified.getTime())) this.pending.add(f.file);
      }
    }
    // Kept from a run over other folders, or gone since: not searched.
    for (const path of this.index.paths()) if (!seen.has(splitPartPath(path)?.file ?? path) && this.index.remove(path)) this.dirty = true;
    this.drain();
  }

  /** What the watchers saw: files to read again, or to drop. */
  changed(events: ReadonlyArray<{ path: string; kind: 'added' | 'changed' | 'removed' }>): void {
    if (!this.started) return;
    for (const e of events) {
      this.texts.delete(e.path);
      if (e.kind === 'removed') {
        this.pending.delete(e.path);
        if (this.drop(e.path)) this.changedIndex();
      } else this.pending.add(e.path);
    }
    this.drain();
  }

  private drain(): void {
    if (this.building || this.pending.size === 0 || this.closed) return;
    this.building = (async () => {
      let last = 0;
      let since = performance.now();
      while (this.pending.size > 0 && !this.closed) {
        const file = this.pending.values().next().value as string;
        this.pending.delete(file);
        this.add(file);
        // Other requests (the file the user clicked) go between files; progress at most five times a second.
        if (performance.now() - since > 12) {
          await nextTurn();
          since = performance.now();
        }
        if (performance.now() - last > 200) {
          last = performance.now();
          this.onProgress(this.status());
        }
      }
    })().finally(() => {
      this.building = undefined;
      this.onProgress(this.status());
      this.changedIndex();
      this.drain();
    });
  }

  /**
   * Reads one file into the index (a file that does not parse is left out: the listing reports it), under its
   * real path; a path the watcher reported that leads out of the opened folders is dropped, never read.
   */
  private add(reported: string): void {
    const file = this.roots.confine(reported);
    if (file !== reported && this.drop(reported)) this.dirty = true;
    if (file === undefined) return;
    let st;
    try {
      st = statSync(file);
    } catch {
      if (this.drop(file)) this.dirty = true;
      return;
    }
    if (this.indexed(file, st.size, st.mtimeMs)) return;
    this.drop(file);
    if (st.size > this.parting.maxFileBytes) {
      this.addParts(file, st);
      return;
    }
    try {
      const { codec, doc } = readDocumentFile(file);
      const { messages, conversationSizes } = searchableAsShown(codec, doc);
      this.index.put(buildSegment({ path: file, format: codec.id, size: st.size, mtimeMs: st.mtimeMs, messages, conversationSizes }, this.index.dictionary, this.index.roleCode));
      this.remember(file, st.size, st.mtimeMs, messages);
    } catch {
      this.index.remove(file);
    }
    this.dirty = true;
  }

  /**
   * A session too big to read whole, indexed a part at a time as the app opens it: each part a segment of its
   * own, named as the part is (a hit opens that part). Other files that big are left out, as the app refuses them.
   */
  private addParts(file: string, st: { size: number; mtimeMs: number }): void {
    const read = partsToRead(file, st.size, this.parting.partBytes);
    if (!read) return;
    const { format, parts } = read;
    const codec = codecById(format)!;
    this.parted.set(file, parts.length);
    for (const part of parts) {
      try {
        const { messages, conversationSizes } = searchableMessages(codec, readPartDocument(file, part, format).doc);
        this.index.put(buildSegment({ path: partPath(file, part.number), format, size: st.size, mtimeMs: st.mtimeMs, messages, conversationSizes }, this.index.dictionary, this.index.roleCode));
      } catch {
        // A part that does not read (changed meanwhile): the watcher's report brings the file back.
      }
    }
  }

  private remember(file: string, size: number, mtimeMs: number, messages: SearchableMessage[]): void {
    // A part's text is some 100 MB: one is kept, for the lines of its hits.
    if (splitPartPath(file)) for (const kept of [...this.texts.keys()]) if (splitPartPath(kept)) this.texts.delete(kept);
    this.texts.delete(file);
    this.texts.set(file, { size, mtimeMs, messages });
    while (this.texts.size > TEXT_CACHE_FILES) this.texts.delete(this.texts.keys().next().value as string);
  }

  /** The messages of a file as search sees them, from the cache while the file is unchanged. */
  private messagesOf(file: string): SearchableMessage[] | undefined {
    const part = existsSync(file) ? undefined : splitPartPath(file);
    // Indexed under its real path: a path that is a link now (or leads out) is not read for a line.
    if (this.roots.confine(part?.file ?? file) !== (part?.file ?? file)) return undefined;
    let st;
    try {
      st = statSync(part?.file ?? file);
    } catch {
      return undefined;
    }
    const cached = this.texts.get(file);
    if (cached && cached.size === st.size && cached.mtimeMs === st.mtimeMs) return cached.messages;
    try {
      const { codec, doc } = part ? this.partOf(part.file, part.number, st.size) : readDocumentFile(file);
      const { messages } = searchableAsShown(codec, doc);
      this.remember(file, st.size, st.mtimeMs, messages);
      return messages;
    } catch {
      return undefined;
    }
  }

  /** Part `number` of a file read a part at a time, read as it is now. */
  private partOf(file: string, number: number, size: number) {
    const read = partsToRead(file, size, this.parting.partBytes);
    const part = read?.parts[number - 1];
    if (!read || !part) throw new Error(`${file} has no part ${number}`);
    return readPartDocument(file, part, read.format);
  }

  /**
   * A regular expression over the files given (the catalog's list: no index is built for it), answered with
   * `status` as the caller has it.
   */
  async scanFiles(req: SearchRequest, files: ReadonlyArray<{ path: string; format: string }>, status: SearchStatus): Promise<SearchAnswer> {
    const limit = Math.max(1, Math.min(req.limit ?? 200, 2000));
    return { ...(await this.scan(req, limit, files)), status };
  }

  async query(req: SearchRequest): Promise<SearchAnswer> {
    this.start();
    const limit = Math.max(1, Math.min(req.limit ?? 200, 2000));
    if (req.regex) return this.scan(req, limit);
    const started = performance.now();
    const terms = queryTerms(req.query);
    const found = this.index.query({ terms, roles: req.roles, formats: req.formats, limit, countLimit: COUNT_LIMIT });
    // Lines are found while the answer stays within its time (what the lookup took counts); the rest follow.
    const now = performance.now();
    const deadline = req.snippetMs !== undefined ? now + req.snippetMs : Math.max(started + ANSWER_MS, now + MIN_SNIPPET_MS);
    const hits: FoundMessage[] = [];
    for (const h of found.hits) {
      const hit: FoundMessage = { path: this.roots.display(h.path), format: h.format, conversation: h.conversation, index: h.index, role: h.role };
      // Past the deadline, only files read already give their lines now; the others follow on request.
      if (performance.now() < deadline || this.cached(h.path)) {
        const line = this.lineOf(h.path, h.conversation, h.index, (text) => bestTermMatch(text, terms));
        // Changed since it was indexed and the words are gone: the watcher's report will take it out.
        if (line === null) continue;
        Object.assign(hit, line);
      }
      hits.push(hit);
    }
    const fileTotals = Object.fromEntries(Object.entries(found.fileTotals).map(([p, n]) => [this.roots.display(p), n]));
    return { query: req.query, hits, total: found.total, files: found.files, atLeast: found.atLeast, fileTotals, truncated: found.total > found.hits.length, status: this.status() };
  }

  /** The matching lines of hits an answer listed without them. */
  async snippets(req: { query: string; regex?: boolean; hits: ReadonlyArray<{ path: string; conversation: number; index: number }> }): Promise<Array<Pick<FoundMessage, 'path' | 'conversation' | 'index' | 'snippet' | 'match' | 'shown' | 'offPath' | 'spelled'>>> {
    let find: (text: string) => [number, number] | undefined;
    try {
      find = req.regex ? matcherOf(req.query, true) : ((terms) => (text: string) => bestTermMatch(text, terms))(queryTerms(req.query));
    } catch (e) {
      throw new SearchInputError((e as Error).message);
    }
    const out = [];
    let since = performance.now();
    for (const h of req.hits) {
      const line = this.lineOf(this.roots.resolve(h.path), h.conversation, h.index, find);
      out.push({ path: h.path, conversation: h.conversation, index: h.index, ...(line ?? {}) });
      if (performance.now() - since > 12) {
        await nextTurn();
        since = performance.now();
      }
    }
    return out;
  }

  private cached(file: string): boolean {
    return this.texts.has(file);
  }

  /** The line of a message where `find` finds its match: null when the message (or the match) is gone. */
  private lineOf(file: string, conversation: number, index: number, find: (text: string) => [number, number] | undefined): Pick<FoundMessage, 'snippet' | 'match' | 'shown' | 'offPath' | 'spelled'> | null {
    const m = messageAt(this.messagesOf(file) ?? [], conversation, index);
    const at = m ? find(m.text) : undefined;
    if (!m || !at) return null;
    const s = readableSnippet(m.text, at, m.readable ?? m.text, find);
    return { snippet: s.text, match: s.match, ...shownFields(m) };
  }

  /** A regular expression: every indexed file read in turn, until the limit or the time is reached. */
  private async scan(req: SearchRequest, limit: number, listed?: ReadonlyArray<{ path: string; format: string }>): Promise<SearchAnswer> {
    let matcher;
    try {
      matcher = matcherOf(req.query, true);
    } catch (e) {
      throw new SearchInputError((e as Error).message);
    }
    const files = (listed ?? this.index.export().segments.map((s) => ({ path: s.path, format: s.format })))
      .filter((s) => !req.formats?.length || req.formats.includes(s.format))
      .map((s) => ({ path: s.path, format: s.format }))
      .sort((a, b) => comparePaths(a.path, b.path));
    const found = await scanWithRegex(files, matcher, req.roles?.length ? new Set(req.roles) : undefined, limit, (path) => this.messagesOf(path) ?? [], (path) => this.roots.display(path));
    return { query: req.query, ...found, status: this.status() };
  }

  private changedIndex(): void {
    this.dirty = true;
    if (!this.keptFile || this.saveTimer || this.closed) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.save();
    }, 3000);
    this.saveTimer.unref();
  }

  private load(): void {
    if (!this.keptFile || !existsSync(this.keptFile)) return;
    try {
      const kept = deserialize(readFileSync(this.keptFile)) as { version: number; index: KeptIndex };
      if (kept.version === KEPT_VERSION) this.index = SearchIndex.from(kept.index);
      for (const path of this.index.paths()) {
        const part = splitPartPath(path);
        if (part) this.parted.set(part.file, Math.max(part.number, this.parted.get(part.file) ?? 0));
      }
    } catch {
      // A damaged index is rebuilt from the files.
    }
  }

  private save(): void {
    if (!this.keptFile || !this.dirty) return;
    this.dirty = false;
    try {
      // Every conversation's words: this user's alone (0600, in a private folder).
      writePrivateFileSync(this.keptFile, serialize({ version: KEPT_VERSION, index: this.index.export() }));
    } catch {
      // Not kept this time: the next run reads the files again.
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    // Mid-build too: what is not in it yet is read at the next start.
    if (this.started) this.save();
  }
}

/** A query that cannot run as given (a regular expression that does not parse). */
export class SearchInputError extends Error {}
