import type { EventName, EventPayload } from '../../shared/contract.js';
import type { DocumentStore } from '../documents/documents.js';
import type { Roots } from '../roots.js';
import type { TokenService } from '../tokens/token-service.js';
import type { ListingCache } from '../listing/listing-cache.js';
import type { SettingsStore } from '../state/settings-store.js';
import type { SecretStore } from '../state/key-store.js';
import type { Search } from '../search/search-thread.js';
import type { DismissedFindings } from '../../../src/core/secrets/dismissed-store.js';
import type { SaveOptions } from '../editing/save.js';

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
  /** What the listing knows of each file by (size, mtime); opening and counting a file add to it. */
  listing: ListingCache;
  /** Findings the user dismissed as false positives, per file (kept in the state folder). */
  dismissed: DismissedFindings;
  /** Search across the opened folders' conversations. */
  search: Search;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** How saves treat other programs writing the file (how long to wait for one to let go; whether to look). */
  saving?: Pick<SaveOptions, 'waitMs' | 'writers' | 'onWriting'>;
}
