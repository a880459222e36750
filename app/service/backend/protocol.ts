import type { EventName, Result, Settings } from '../../shared/contract.js';
import type { WatchEvent } from '../watch/watcher.js';
import type { ListingNote } from '../listing/listing-cache.js';
import type { RuntimeOptions } from '../runtime.js';
import type { DocumentSnapshot, LoggedRequest, Restored, Writing } from '../editing/restore.js';

/** What the document service is started with (everything but what cannot cross a thread). */
export type BackendOptions = Omit<RuntimeOptions, 'secrets' | 'tokens'>;

/** Secrets cross into the service as values; writes come back to be kept (encrypted, in Electron) by main. */
export interface SecretSnapshot {
  kind: 'encrypted' | 'memory';
  values: Record<string, string>;
}

export type ToService =
  | { type: 'request'; id: number; channel: unknown; input: unknown }
  | { type: 'close' }
  // Files a thread of their own holds: what the watchers see of them is sent on (the main service only).
  | { type: 'elsewhere'; paths: string[] }
  // What the watchers saw of the file this service holds (a service for one big file).
  | { type: 'changed-on-disk'; events: WatchEvent[] }
  // Changes made through another service, to take without saving them again.
  | { type: 'settings'; value: Settings }
  | { type: 'secret'; name: string; value: string | undefined }
  | { type: 'unsaved?'; id: number }
  // What a big file's own service learnt of it (its exact counts, its token total), for the folder's listing.
  | { type: 'listing'; note: ListingNote }
  // The edits of a file, kept by the router: what they were made over, and again in a service started afresh.
  | { type: 'snapshot?'; id: number; path: string }
  | { type: 'restore'; id: number; path: string; snapshot?: DocumentSnapshot; entries: LoggedRequest[]; writing?: Writing };

export type FromService =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: Result<unknown> }
  | { type: 'event'; event: EventName; payload: unknown }
  | { type: 'secret'; name: string; value: string | undefined }
  | { type: 'elsewhere'; events: WatchEvent[] }
  | { type: 'unsaved'; id: number; unsaved: boolean }
  | { type: 'listing'; note: ListingNote }
  | { type: 'snapshot'; id: number; snapshot?: DocumentSnapshot }
  | { type: 'restored'; id: number; restored?: Restored; error?: string }
  // A save is about to replace (or append to) a file: what it writes.
  | { type: 'writing'; path: string; writing: Writing }
  | { type: 'closed' };
