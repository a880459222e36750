/**
 * The catalog's tables. A cache: any version but this one, or a file SQLite cannot read, is deleted and built
 * again from the files (nothing is kept only here).
 */
export const CATALOG_VERSION = 24;

/**
 * A message's row and its words. The catalog holds them (what a watcher's update writes), and so does each shard
 * of the index (shards.ts: what a reader thread writes while it builds), under `schema`.
 */
export const MESSAGE_TABLES = (schema: string) => `
-- A message's id is its file's slot × 2^24 + its place among the file's messages (store.ts): a file's messages are
-- deleted as a range of ids with its sessions, not by a key to them (an index on it doubled their writing).
CREATE TABLE ${schema}messages(
  id INTEGER PRIMARY KEY,
  conversation INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  role TEXT NOT NULL,
  -- The bytes of its line in a file of one record per line (a hit's line is read from there).
  line_start INTEGER,
  line_end INTEGER,
  -- Where the app and show list it by default: its thread and row; NULL thread for none, its row -1 when it is on a
  -- branch its thread left, -2 when it is before a compaction of its thread.
  shown_thread TEXT,
  shown_row INTEGER,
  spelled TEXT
);
-- Contentless: the words are looked up here, the lines read from the files (a copy of every text would double
-- the catalog and cost a third more to build).
CREATE VIRTUAL TABLE ${schema}messages_fts USING fts5(text, content='', contentless_delete=1, detail=none, tokenize="unicode61 remove_diacritics 0 categories 'L* N* M*'");
`;

export const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE files(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ino INTEGER NOT NULL,
  format TEXT,
  format_label TEXT,
  tool TEXT,
  error TEXT,
  error_line INTEGER,
  error_column INTEGER,
  other INTEGER NOT NULL DEFAULT 0,
  -- How far the file was read, and a hash of the bytes before that point: a file that grew past them was appended to.
  read_bytes INTEGER NOT NULL DEFAULT 0,
  end_hash TEXT,
  -- 0 for a file listed from a few of its lines (quick-read.ts): read whole next, as if it had changed.
  whole INTEGER NOT NULL DEFAULT 1,
  -- How many of its messages are in the index (what search-all looks into, counted without counting them).
  indexed INTEGER NOT NULL DEFAULT 0,
  -- Its messages' range of ids (store.ts), NULL while it has none: given in the order files are read whole, so
  -- that a build writes its messages at the end of the table, not into its middle (2× the work).
  slot INTEGER UNIQUE
);
CREATE TABLE sessions(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  conversation INTEGER NOT NULL,
  session_id TEXT,
  parent_file TEXT,
  parent_session_id TEXT,
  agent_id TEXT,
  kind TEXT NOT NULL,
  title TEXT,
  project TEXT,
  first_at TEXT,
  last_at TEXT,
  models TEXT NOT NULL DEFAULT '[]',
  messages INTEGER NOT NULL,
  prompts INTEGER NOT NULL,
  default_thread TEXT,
  threads TEXT,
  calls INTEGER NOT NULL DEFAULT 0,
  input_calls INTEGER NOT NULL DEFAULT 0,
  output_calls INTEGER NOT NULL DEFAULT 0,
  input INTEGER NOT NULL DEFAULT 0,
  output INTEGER NOT NULL DEFAULT 0,
  cache_read INTEGER NOT NULL DEFAULT 0,
  cache_write INTEGER NOT NULL DEFAULT 0,
  reasoning INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL,
  unpriced TEXT NOT NULL DEFAULT '[]',
  -- Secrets found in its records (the rules of src/core/secrets, dismissals aside): NULL until looked into, -1 for
  -- a file not looked into (too big to read whole).
  secrets INTEGER,
  -- The hash a tool names the session's folder by (Gemini CLI's projectHash), and whether the session itself proves
  -- which folder that is: a proven one gives its project to every session of the hash.
  project_hash TEXT,
  project_proven INTEGER NOT NULL DEFAULT 0,
  UNIQUE(file_id, conversation)
);
CREATE INDEX sessions_project_hash ON sessions(project_hash) WHERE project_hash IS NOT NULL;
CREATE INDEX sessions_last ON sessions(last_at);
CREATE INDEX sessions_project ON sessions(project, last_at);
CREATE INDEX sessions_sid ON sessions(session_id);
CREATE INDEX sessions_parent_file ON sessions(parent_file);
CREATE TABLE calls(
  id INTEGER PRIMARY KEY,
  session INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  idx INTEGER NOT NULL,
  at TEXT,
  day TEXT,
  model TEXT,
  input INTEGER,
  output INTEGER,
  cache_read INTEGER NOT NULL,
  cache_write INTEGER NOT NULL,
  cache_write_1h INTEGER NOT NULL DEFAULT 0,
  reasoning INTEGER NOT NULL,
  n INTEGER NOT NULL DEFAULT 1,
  cost_usd REAL,
  UNIQUE(session, key)
);
-- No index by day: the usage view adds up usage_days; one cost the listing a quarter of writing the calls.
CREATE INDEX calls_cost ON calls(cost_usd);
-- Each session's calls added up by day and model, kept with its calls: the usage view adds these up, not every call.
CREATE TABLE usage_days(
  session INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  day TEXT,
  model TEXT,
  calls INTEGER NOT NULL,
  input INTEGER NOT NULL,
  output INTEGER NOT NULL,
  cache_read INTEGER NOT NULL,
  cache_write INTEGER NOT NULL,
  cost_usd REAL NOT NULL,
  unpriced INTEGER NOT NULL,
  input_calls INTEGER NOT NULL
);
CREATE INDEX usage_days_session ON usage_days(session);
-- Names a tool keeps for its sessions in a file of their own (Codex's session_index.jsonl, Copilot CLI's
-- workspace.yaml): the last one a session was given titles it.
CREATE TABLE session_names(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  session_id TEXT NOT NULL,
  name TEXT NOT NULL
);
CREATE INDEX session_names_sid ON session_names(session_id, id);
CREATE INDEX session_names_file ON session_names(file_id);
${MESSAGE_TABLES('')}
`;

/**
 * The index's own settings, set once it is made: terms gathered in memory up to 16 MB (a transaction's worth of
 * messages, not 1 MB) before they are written, so that a build writes a segment per transaction, not several to
 * merge again (a fifth less work building it, a tenth smaller). An option an older SQLite lacks is left out.
 */
export const INDEX_SETTINGS = (schema = '') => [`INSERT INTO ${schema}messages_fts(messages_fts, rank) VALUES ('hashsize', 16777216)`];
