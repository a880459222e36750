/**
 * An independent reader of a Claude Code session's chain, written from the public format (not from the
 * codec): `claude --resume` takes the newest transcript line of the main thread and follows `parentUuid` back
 * to a root; the messages on that path are the conversation it sends the model. Used to check that what the
 * app writes is still a session Claude Code can resume whole.
 */
import type { Loose } from './loose.js';
export interface WalkResult {
  /** uuids from the root to the newest line. */
  path: string[];
  /** Why the file would not resume whole ([] when it would). */
  errors: string[];
}

const LINKS = new Set(['user', 'assistant', 'system', 'attachment']);

export function walkSession(text: string): WalkResult {
  const errors: string[] = [];
  const byUuid = new Map<string, Loose>();
  const lines: Loose[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let v: Loose;
    try {
      v = JSON.parse(raw);
    } catch {
      errors.push(`line ${i + 1} is not JSON`);
      return;
    }
    lines.push(v);
    if (typeof v.uuid === 'string') {
      if (byUuid.has(v.uuid)) errors.push(`uuid ${v.uuid} appears twice`);
      byUuid.set(v.uuid, v);
    }
  });
  const leaf = [...lines].reverse().find((v) => LINKS.has(v.type) && typeof v.uuid === 'string' && v.isSidechain !== true);
  if (!leaf) return { path: [], errors };
  const path: string[] = [];
  const seen = new Set<string>();
  for (let at: Loose | undefined = leaf; at; ) {
    if (seen.has(at.uuid)) {
      errors.push(`cycle at ${at.uuid}`);
      break;
    }
    seen.add(at.uuid);
    path.push(at.uuid);
    if (at.parentUuid === null || at.parentUuid === undefined) break;
    const parent = byUuid.get(at.parentUuid);
    if (!parent) {
      errors.push(`${at.uuid} names parent ${at.parentUuid}, which is not in the file`);
      break;
    }
    at = parent;
  }
  path.reverse();
  const open = new Set<string>();
  for (const uuid of path) {
    const content = byUuid.get(uuid)!.message?.content;
    if (!Array.isArray(content)) continue;
    for (const b of content) {
      if (b?.type === 'tool_use') open.add(b.id);
      if (b?.type === 'tool_result' && !open.has(b.tool_use_id)) errors.push(`tool_result for ${b.tool_use_id} without its tool_use before it`);
    }
  }
  for (const v of lines) {
    if ((v.type === 'user' || v.type === 'assistant') && (typeof v.sessionId !== 'string' || typeof v.cwd !== 'string' || typeof v.version !== 'string')) {
      errors.push(`${v.uuid ?? 'a line'} has no sessionId, cwd or version`);
    }
    if (typeof v.parentUuid === 'string' && !byUuid.has(v.parentUuid)) errors.push(`${v.uuid ?? v.type} names parent ${v.parentUuid}, which is not in the file`);
  }
  return { path, errors: [...new Set(errors)] };
}
