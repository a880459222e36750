import { join } from 'node:path';

/** A folder where an agent keeps its sessions, as the tool's own docs and source place it. */
export interface AgentPlace {
  name: string;
  path: string;
}

interface PlaceEnv {
  platform: NodeJS.Platform;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** VS Code's and its forks' user data folder (`Code/User`), per OS: where extensions keep their tasks. */
function editorUser({ platform, home, env }: PlaceEnv, product: string): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', product, 'User');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), product, 'User');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), product, 'User');
}

// Cline and its forks keep one folder per task in the editor's globalStorage, under the extension's id.
const TASK_EXTENSIONS = [
  { name: 'Cline tasks', id: 'saoudrizwan.claude-dev' },
  { name: 'Roo Code tasks', id: 'rooveterinaryinc.roo-cline' },
  { name: 'Kilo Code tasks', id: 'kilocode.kilo-code' },
];

/**
 * Every place an agent this tool reads may keep sessions, for this OS and environment (existing or not: the
 * caller keeps those that exist). Environment overrides the tools document come first.
 */
export function agentPlaceCandidates(p: PlaceEnv): AgentPlace[] {
  const { home, env } = p;
  const claude = env.CLAUDE_CONFIG_DIR ?? join(home, '.claude');
  const codex = env.CODEX_HOME ?? join(home, '.codex');
  // OpenCode follows the XDG base directories on every OS (xdg-basedir), not the OS's own data folder.
  const xdgData = env.XDG_DATA_HOME ?? join(home, '.local', 'share');
  const user = editorUser(p, 'Code');
  const cursor = editorUser(p, 'Cursor');
  const copilot = env.COPILOT_HOME ?? join(home, '.copilot');
  return [
    { name: 'Claude Code sessions', path: join(claude, 'projects') },
    { name: 'Codex sessions', path: join(codex, 'sessions') },
    { name: 'Codex archived sessions', path: join(codex, 'archived_sessions') },
    { name: 'Gemini CLI sessions', path: join(home, '.gemini', 'tmp') },
    { name: 'Copilot CLI sessions', path: join(copilot, 'session-state') },
    { name: 'Copilot CLI sessions (before 0.0.342)', path: join(copilot, 'history-session-state') },
    // OpenCode 1.x keeps its sessions in opencode.db here; before, in storage/ below it.
    { name: 'OpenCode (opencode.db)', path: join(xdgData, 'opencode') },
    { name: 'OpenCode storage', path: join(xdgData, 'opencode', 'storage') },
    { name: 'Continue sessions', path: join(home, '.continue', 'sessions') },
    ...TASK_EXTENSIONS.map((t) => ({ name: t.name, path: join(user, 'globalStorage', t.id, 'tasks') })),
    { name: 'VS Code chat sessions (per workspace)', path: join(user, 'workspaceStorage') },
    { name: 'VS Code chat sessions (empty windows)', path: join(user, 'globalStorage', 'emptyWindowChatSessions') },
    // Cursor's chats are in its global state.vscdb (older ones in each workspace's).
    { name: 'Cursor chats', path: join(cursor, 'globalStorage') },
    { name: 'Cursor chats (per workspace)', path: join(cursor, 'workspaceStorage') },
  ];
}
