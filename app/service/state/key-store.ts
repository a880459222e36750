/**
 * Where the summariser's API key lives. Handlers see only this interface: Electron main gives one backed
 * by safeStorage (encrypted at rest); browser mode keeps the key in memory for the server's lifetime. The key
 * is never written in plain text and never sent to the renderer.
 */
export interface SecretStore {
  get(name: string): string | undefined;
  set(name: string, value: string | undefined): void;
  /** How the key is kept, for the settings screen. */
  readonly kind: 'encrypted' | 'memory';
}

export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  private readonly values = new Map<string, string>();
  get(name: string): string | undefined {
    return this.values.get(name);
  }
  set(name: string, value: string | undefined): void {
    if (value) this.values.set(name, value);
    else this.values.delete(name);
  }
}
