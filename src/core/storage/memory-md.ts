import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { contentText } from '../message.js';
import { writeFileAtomicSync } from './atomic-write.js';

/** The preamble of the "System" message that carries MEMORY.md into a new session. */
export const MEMORY_PREAMBLE =
  "[Persistent Memory — MEMORY.md]\nThe following is this conversation's persistent memory from prior sessions. Use it to continue context coherently.\n\n";

export function memoryHeader(name: string, now: Date = new Date()): string {
  return `# Agent Memory\n\n**Conversation:** ${name}\n**Created:** ${now.toISOString()}\n\n---\n\n## Interaction Log\n\n`;
}

export function memoryEntry(role: string, content: unknown, now: Date = new Date()): string | undefined {
  const text = contentText(content).trim();
  if (text.length === 0) return undefined;
  return `### ${role} — ${now.toISOString()}\n\n${text}\n\n---\n\n`;
}

/** Creates the file with its header when missing. Returns true when it wrote one. */
export function ensureMemoryFile(path: string, name: string): boolean {
  if (existsSync(path)) return false;
  writeFileAtomicSync(path, memoryHeader(name));
  return true;
}

/** The text to load as persistent memory: only a file that logged at least one interaction. */
export function readMemoryForSeed(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, 'utf8');
  return /^### /m.test(text) ? text : undefined;
}

/** Appends one interaction block, first making sure the file ends with a blank line. */
export function appendMemory(path: string, name: string, role: string, content: unknown, now: Date = new Date()): void {
  const entry = memoryEntry(role, content, now);
  if (entry === undefined) return;
  if (!existsSync(path)) {
    writeFileAtomicSync(path, memoryHeader(name, now) + entry);
    return;
  }
  const current = readFileSync(path, 'utf8');
  let pad = '';
  if (current.length > 0 && !current.endsWith('\n\n')) pad = current.endsWith('\n') ? '\n' : '\n\n';
  appendFileSync(path, pad + entry, 'utf8');
}

function archiveStamp(now: Date): string {
  const iso = now.toISOString(); // 2026-11-30T09:15:02.123Z
  return `${iso.slice(0, 10)}_${iso.slice(11, 13)}-${iso.slice(14, 16)}-${iso.slice(17, 19)}`;
}

/**
 * Moves the memory log to `<its folder>/archive/history_<UTC stamp>.md` (a `-2`, `-3`, ... suffix when that
 * second is taken) and re-seeds the file with a fresh header. Returns the archive path, or undefined when
 * there was no file.
 */
export function archiveAndReseedMemory(path: string, name: string, now: Date = new Date()): string | undefined {
  if (!existsSync(path)) {
    writeFileAtomicSync(path, memoryHeader(name, now));
    return undefined;
  }
  const archiveDir = join(dirname(path), 'archive');
  const stamp = archiveStamp(now);
  let target = join(archiveDir, `history_${stamp}.md`);
  for (let n = 2; existsSync(target); n++) target = join(archiveDir, `history_${stamp}-${n}.md`);
  writeFileAtomicSync(target, readFileSync(path, 'utf8'));
  writeFileAtomicSync(path, memoryHeader(name, now));
  return target;
}
