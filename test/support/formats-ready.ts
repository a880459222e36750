// Tests read files directly (not through a handler or the CLI, which wait for it): SQLite's reader is loaded first.
import { formatsReady } from '../../src/core/formats/containers/index.js';

await formatsReady();
