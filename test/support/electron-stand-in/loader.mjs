// Maps `electron` to the stand-in, so the built main bundle runs unmodified in plain Node.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
