import { existsSync, readFileSync } from 'node:fs';
import { DEFAULT_SUMMARY_BASE_URL, DEFAULT_SUMMARY_MODEL, SESSION_MODEL } from '../../../src/core/defaults.js';
import { writePrivateFileSync } from '../../../src/core/storage/private-dir.js';
import { Settings } from '../../shared/contract.js';

// Each session is counted for its own model until the user picks one for all.
const DEFAULTS: Settings = { model: SESSION_MODEL, summaryBaseUrl: DEFAULT_SUMMARY_BASE_URL, summaryModel: DEFAULT_SUMMARY_MODEL, ui: {}, roleOverrides: {}, prices: {} };

/** Only the keys a patch really carries: an absent or undefined key leaves the setting as it is. */
function present(patch: Partial<Settings>): Partial<Settings> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULTS) as Array<keyof Settings>) {
    if (patch[key] !== undefined) out[key] = patch[key];
  }
  return out as Partial<Settings>;
}

/** User settings, kept in a JSON file in the app's data directory when one is given. */
export class SettingsStore {
  private value: Settings;

  constructor(private readonly file?: string) {
    this.value = { ...DEFAULTS };
    if (file && existsSync(file)) {
      try {
        const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        // Each field on its own: one damaged value falls back to its default, the others are kept.
        for (const key of Object.keys(DEFAULTS) as Array<keyof Settings>) {
          const field = Settings.shape[key].safeParse(raw?.[key]);
          if (field.success) (this.value as Record<string, unknown>)[key] = field.data;
        }
      } catch {
        // an unreadable settings file falls back to the defaults
      }
    }
  }

  get(): Settings {
    return { ...this.value };
  }

  /** Settings another thread saved: taken as they are, not written again. */
  adopt(value: Settings): void {
    this.value = { ...value };
  }

  /** Applies and keeps the patch; one that cannot be kept (the disk refused it) is not applied either, and throws. */
  set(patch: Partial<Settings>): Settings {
    const next = { ...this.value, ...present(patch) };
    if (this.file) writePrivateFileSync(this.file, JSON.stringify(next, null, 2) + '\n');
    this.value = next;
    return this.get();
  }
}
