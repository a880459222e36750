import { safeStorage } from 'electron';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileSync } from '../../../src/core/storage/private-dir.js';
import { MemorySecretStore, type SecretStore } from '../../service/state/key-store.js';

/** Secrets encrypted with the OS keychain through Electron's safeStorage; in memory where that is unavailable. */
export function safeStorageSecrets(dir: string): SecretStore {
  if (!safeStorage.isEncryptionAvailable()) return new MemorySecretStore();
  const file = (name: string) => join(dir, `${name.replace(/[^a-z0-9-]/gi, '_')}.secret`);
  return {
    kind: 'encrypted',
    get: (name) => (existsSync(file(name)) ? safeStorage.decryptString(Buffer.from(readFileSync(file(name), 'utf8'), 'base64')) : undefined),
    set: (name, value) => {
      if (!value) rmSync(file(name), { force: true });
      else writePrivateFileSync(file(name), safeStorage.encryptString(value).toString('base64'));
    },
  };
}
