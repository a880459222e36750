import type { EventName, Result } from '../../shared/contract.js';
import type { RuntimeOptions } from '../../server/runtime.js';

/** What the document service is started with (everything but what cannot cross a thread). */
export type BackendOptions = Omit<RuntimeOptions, 'secrets' | 'tokens'>;

/** Secrets cross into the service as values; writes come back to be kept (encrypted, in Electron) by main. */
export interface SecretSnapshot {
  kind: 'encrypted' | 'memory';
  values: Record<string, string>;
}

export type ToService =
  | { type: 'request'; id: number; channel: unknown; input: unknown }
  | { type: 'close' };

export type FromService =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: Result<unknown> }
  | { type: 'event'; event: EventName; payload: unknown }
  | { type: 'secret'; name: string; value: string | undefined }
  | { type: 'closed' };
