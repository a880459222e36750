import type { SecretStore } from '../state/key-store.js';
import type { SecretSnapshot } from './protocol.js';

/**
 * The secrets as the document service sees them: the values main handed over, and every change sent back to
 * main, which alone can reach Electron's safeStorage.
 */
export class RelayedSecretStore implements SecretStore {
  readonly kind: SecretSnapshot['kind'];
  private readonly values: Map<string, string>;

  constructor(snapshot: SecretSnapshot, private readonly persist: (name: string, value: string | undefined) => void) {
    this.kind = snapshot.kind;
    this.values = new Map(Object.entries(snapshot.values));
  }

  get(name: string): string | undefined {
    return this.values.get(name);
  }

  /** A change main already keeps (made through another thread): taken, not sent back. */
  adopt(name: string, value: string | undefined): void {
    if (value) this.values.set(name, value);
    else this.values.delete(name);
  }

  set(name: string, value: string | undefined): void {
    if (value) this.values.set(name, value);
    else this.values.delete(name);
    this.persist(name, value);
  }
}
