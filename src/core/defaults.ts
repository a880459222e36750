/** Defaults shared by the library, the CLI and the app, so they cannot drift apart. */
export const DEFAULT_MODEL = 'gpt-5.4';
/**
 * The model setting that counts each session's tokens for the model it ran on (the app's default): its own
 * tokenizer where it is public, an estimate where not; DEFAULT_MODEL for a session that names no model.
 */
export const SESSION_MODEL = 'session';
/** Where summaries are asked for when nothing else is configured. */
export const DEFAULT_SUMMARY_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_SUMMARY_MODEL = 'gpt-5.4-mini';
