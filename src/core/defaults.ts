/** Defaults shared by the library, the CLI and the app, so they cannot drift apart. */
export const DEFAULT_MODEL = 'gpt-5.4';
/** Where summaries are asked for when nothing else is configured. */
export const DEFAULT_SUMMARY_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_SUMMARY_MODEL = 'gpt-5.4-mini';
