import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../../src/core/storage/atomic-write.js';
import { Settings } from '../shared/contract.js';

const DEFAULTS: Settings = { model: 'gpt-5.4', summaryBaseUrl: 'https://api.openai.com/v1', summaryModel: 'gpt-5.4-mini' };

/** User settings, kept in a JSON file in the app's data directory when one is given. */
export class SettingsStore {
  private value: Settings;

  constructor(private readonly file?: string) {
    this.value = { ...DEFAULTS };
    if (file && existsSync(file)) {
      try {
        const parsed = Settings.partial().safeParse(JSON.parse(readFileSync(file, 'utf8')));
        if (parsed.success) this.value = { ...DEFAULTS, ...parsed.data };
      } catch {
        // a damaged settings file falls back to the defaults
      }
    }
  }

  get(): Settings {
    return { ...this.value };
  }

  set(patch: Partial<Settings>): Settings {
    this.value = { ...this.value, ...patch };
    if (this.file) writeFileAtomicSync(this.file, JSON.stringify(this.value, null, 2) + '\n');
    return this.get();
  }
}
