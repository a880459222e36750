import { basename, dirname } from 'node:path';
import type { Codec } from '../formats/codec.js';

/**
 * Claude Code names a project's folder by its path with every `/` (and `\`, `:`, `.`) made `-`
 * (`-home-user-code-app`, `C--Users-me`): the path back, as well as a name that lost its dashes can be read.
 */
export function decodeProjectFolder(name: string): string | undefined {
  const windows = /^([A-Za-z])--(.*)$/.exec(name);
  if (windows) return `${windows[1]}:\\${windows[2].replace(/-/g, '\\')}`;
  if (name.startsWith('-')) return name.replace(/-/g, '/');
  return undefined;
}

/** The folder of a session file that names its project (Claude Code's `projects/<project>/`, sub-agents two below). */
function claudeProjectFolder(file: string): string {
  const dir = dirname(file);
  return basename(dir) === 'subagents' ? basename(dirname(dirname(dir))) : basename(dir);
}

/**
 * Where a session ran: the working folder the file records, else what the tool's layout says (Claude Code's
 * project folder name decoded, Gemini CLI's project folder), else the folder the file is in.
 */
export function projectOf(file: string, codec: Codec, cwd: string | undefined): string {
  if (cwd) return sameDrive(cwd);
  if (codec.id === 'claude-code') {
    const folder = claudeProjectFolder(file);
    return sameDrive(decodeProjectFolder(folder) ?? folder);
  }
  const dir = dirname(file);
  // Gemini CLI: `tmp/<project>/chats/session-….json`.
  if (basename(dir) === 'chats') return basename(dirname(dir));
  return dir;
}

/** A Windows drive is one drive however a tool spells its letter (`c:\` from a URI, `C:\` from the shell): one project. */
const sameDrive = (path: string): string => (/^[a-z]:[\\/]/.test(path) ? path[0].toUpperCase() + path.slice(1) : path);
