import type { Result } from '../../shared/contract.js';
import type { DocumentSnapshot, LoggedRequest, Writing } from '../editing/restore.js';

/**
 * The router's log of each file's unsaved edits, kept outside the document service so that it outlives the
 * service: what the edits were made over (a snapshot the service gives when the first edit comes, and again
 * after each save) and the requests that made them, in order. A service started afresh is given it back
 * (restore.ts) before it is asked anything about the file. Requests are small (an edit names its message and
 * its new text); a save empties the log, a revert drops it.
 */

/** Requests that change what a document holds, made again in order. */
const EDITS = new Set(['edit:apply', 'edit:undo', 'edit:redo', 'edit:merge', 'history:restore', 'secrets:redact', 'window:compact']);
/** Requests that change which path a conversation shows (later edits name rows of it). */
const VIEWS = new Set(['conversation:path', 'conversation:reveal']);

export interface FileLog {
  snapshot?: DocumentSnapshot;
  entries: LoggedRequest[];
  /** What a save under way was writing (until it answers). */
  writing?: Writing;
  /** The service and its start the log's document lives in. */
  at?: { service: object; start: number };
}

export const changesDocument = (channel: unknown): boolean => typeof channel === 'string' && EDITS.has(channel);

/** A compaction is made again with the summary it got (a summariser asked twice answers otherwise), its MEMORY.md left as it is now. */
function asLogged(channel: string, input: unknown, value: unknown): unknown {
  if (channel !== 'window:compact') return input;
  return { ...(input as object), summarizer: { kind: 'text', text: (value as { summary: string }).summary }, archiveMemory: false };
}

export class EditLog {
  private readonly logs = new Map<string, FileLog>();

  get(file: string): FileLog | undefined {
    return this.logs.get(file);
  }

  /** Whether any file has edits the service may not hold any more (it stopped). */
  holdsEdits(): boolean {
    for (const log of this.logs.values()) if (log.entries.some((e) => EDITS.has(e.channel))) return true;
    return false;
  }

  start(file: string, snapshot: DocumentSnapshot | undefined, at: FileLog['at']): FileLog {
    const log: FileLog = { snapshot, entries: [], at };
    this.logs.set(file, log);
    return log;
  }

  writing(file: string, writing: Writing): void {
    const log = this.logs.get(file);
    if (log) log.writing = writing;
  }

  /** After a request about the file was answered: what it changed goes into the log. */
  answered(file: string, channel: string, input: unknown, result: Result<unknown>, cut = false): 'saved' | 'dropped' | undefined {
    const log = this.logs.get(file);
    if (!log) return undefined;
    if (channel === 'edit:save') {
      // Cut off by the service stopping: the file may hold the save, which the restore finds out from it.
      if (!cut) log.writing = undefined;
      return result.ok ? 'saved' : undefined;
    }
    if (!result.ok) return undefined;
    if (channel === 'edit:revert') {
      this.logs.delete(file);
      return 'dropped';
    }
    // A compaction previewed, not applied, changed nothing.
    if (channel === 'window:compact' && (input as { apply?: boolean }).apply !== true) return undefined;
    if (EDITS.has(channel) || VIEWS.has(channel)) {
      const version = (result.value as { version?: unknown } | undefined)?.version;
      log.entries.push({ channel, input: asLogged(channel, input, result.value), ...(typeof version === 'number' ? { version } : {}) });
    }
    return undefined;
  }
}
