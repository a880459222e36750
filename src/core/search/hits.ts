import type { ThreadRow } from '../tree/thread-rows.js';
import { ownerOf } from '../sessions/thread-files.js';
import { relative, sep } from 'node:path';
import { bestTermMatch, firstTermMatch, snippetAround, type Snippet } from './snippet.js';
import { linearRegex } from './linear-regex.js';
import { foldCase, queryTerms, textMatches, unspacedRuns } from './words.js';

// What a search finds and how it matches, apart from reading files: a search from the catalog loads no format's reader for these.

export interface SearchOptions {
  /** QUERY is a regular expression (JavaScript syntax, case-insensitive, run in linear time: see linear-regex.ts) instead of words. */
  regex?: boolean;
  /** Only messages of these normal roles (system, user, assistant, tool, other). */
  roles?: readonly string[];
  /** Only files read by these codecs. */
  formats?: readonly string[];
}

export interface SearchHit {
  /** Relative to the folder searched, with "/" between parts. */
  path: string;
  conversation: number;
  index: number;
  role: string;
  snippet: string;
  /** Where the match is in `snippet`. */
  match: [number, number];
  /**
   * For a file whose records make threads (`index` is then the record's place in the file, as `show --thread
   * all` numbers it): the thread and row `show` shows it at, or null when no thread shown by default holds it.
   */
  shown?: ThreadRow | null;
  /** The hit is on the thread `show` shows without `--thread` (for people's output; not part of --json). */
  onDefaultThread?: boolean;
  /**
   * For a file that is a thread of a session (a Claude Code sub-agent file, a Codex child rollout): the session
   * (its id, and its file as `path` is given, where it was found) and the thread (`show SESSION --thread THREAD`).
   */
  session?: { id: string; path?: string; thread: string; kind: string };
  /** The role as the file spells it, where that is not the normal role (Aider's "tool" lines are "other"): what `show` prints. */
  spelled?: string;
  /** The title of the session its file holds, as the session list gives it (a search from the catalog; a file of one session). */
  title?: string;
}

/** For a hit in a thread's own file (a sub-agent's, a Codex child rollout): whose thread it is, the session's file relative to `dir`. */
export function sessionOfHits(dir: string, file: string, codecId: string): SearchHit['session'] {
  const owner = ownerOf(file, codecId);
  return owner && { id: owner.sessionId, ...(owner.file ? { path: relative(dir, owner.file).split(sep).join('/') } : {}), thread: owner.thread, kind: owner.kind };
}

/** A query made once: where its first match is in a text, or nothing. */
export type Matcher = (text: string) => [number, number] | undefined;

/** Words (each beginning a word of the message, in any case) or a regular expression. */
export function matcherOf(query: string, regex = false): Matcher {
  // Run in linear time: no pattern can hold a search for longer than reading the text takes.
  if (regex) return linearRegex(query);
  const terms = queryTerms(query);
  if (terms.length === 0) return () => undefined;
  // Chinese or Japanese words of the query are found character by character; a hit holds them together.
  const runs = unspacedRuns(query);
  // One word: its first match says whether the text holds it (by the same word rule), read no further.
  if (runs.length === 0 && terms.length === 1) return (text) => firstTermMatch(text, terms);
  if (runs.length === 0) return (text) => (textMatches(text, terms) ? bestTermMatch(text, terms) : undefined);
  return (text) => {
    if (!textMatches(text, terms)) return undefined;
    const lower = foldCase(text);
    const at = runs.map((r) => lower.indexOf(r));
    if (at.some((k) => k < 0)) return undefined;
    return lower.length === text.length ? [at[0], at[0] + runs[0].length] : bestTermMatch(text, terms);
  };
}

/**
 * The line a found message shows: around the match in its text as a reader reads it (a tool call's values, not
 * its JSON: `readableText`), or in the text as searched where only that holds it (a word of a JSON key).
 */
export function readableSnippet(searched: string, at: [number, number], readable: string, matcher: Matcher): Snippet {
  if (readable === searched) return snippetAround(searched, at);
  const there = matcher(readable);
  if (there) return snippetAround(readable, there);
  // Some words only in the JSON (`file` of "file_path"), the one shown in what a reader reads too (`Read` of
  // "Read: src/a.ts"): around it there, not on a line of JSON or a tool's bare name.
  const word = queryTerms(searched.slice(at[0], at[1]));
  const same = word.length === 1 ? firstTermMatch(readable, word) : undefined;
  return snippetAround(same ? readable : searched, same ?? at);
}

export interface TreeSearch {
  hits: SearchHit[];
  files: number;
  /** Files that could not be read, with the reason (and line, where known). */
  /** `notRead`: a database of a tool not read here (unread-stores.ts), no error. */
  errors: Array<{ path: string; line?: number; column?: number; message: string; notRead?: true }>;
  /** The walk stopped at its file cap: there are more files than were searched. */
  truncated: boolean;
  /** Folders deeper than the walk's depth limit, not searched. */
  tooDeep: number;
  /** Files with hits that hold several conversations (their hits are numbered conversation:row). */
  multi: Set<string>;
  /** Links leading out of `dir` (by their paths in it): not searched, never read. */
  outside: string[];
}

