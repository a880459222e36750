/** Hidden folders agent tools write their histories into: looked into; every other hidden folder is not. */
export const AGENT_FOLDERS = new Set(['.claude', '.codex', '.swarms', '.cline', '.roo', '.continue', '.aider', '.gemini', '.cursor', '.openai', '.agents', '.copilot', '.opencode', '.crush']);
const SKIPPED_FOLDERS = new Set(['node_modules', '__pycache__', '.git', '.hg', '.svn', '.venv', 'venv', 'dist', 'build', 'target']);

export const DEFAULT_DEPTH = 8;
export const DEFAULT_FILE_CAP = 20_000;

/** Whether a folder is looked into: not dependencies or version control, not hidden unless an agent tool's. */
export function visitFolder(name: string): boolean {
  if (SKIPPED_FOLDERS.has(name)) return false;
  return !name.startsWith('.') || AGENT_FOLDERS.has(name);
}
