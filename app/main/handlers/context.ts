import type { EventName, EventPayload } from '../../shared/contract.js';
import type { DocumentStore } from '../documents.js';
import type { Roots } from '../roots.js';
import type { TokenService } from '../token-service.js';
import type { SettingsStore } from '../settings-store.js';
import type { SecretStore } from '../secrets.js';

/** What every handler may use; built once by the runtime (Electron main or the browser-mode server). */
export interface HandlerContext {
  roots: Roots;
  documents: DocumentStore;
  tokens: TokenService;
  settings: SettingsStore;
  mode: 'electron' | 'browser';
  /** Whether these handlers run on the document service's own thread. */
  service: 'worker' | 'in-process';
  secrets: SecretStore;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}
