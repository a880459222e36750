import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../paths.js';
import type { Loose } from './loose.js';

/**
 * The real files other people's tools wrote (shared test data beside the checkout, never copied into the
 * project): found where the checkout's siblings keep them, or at $REALFILES. Undefined when they are absent.
 */
export const REALFILES: string | undefined = [process.env.REALFILES, join(ROOT, '..', 'shared', 'realfiles'), join(ROOT, '..', '..', 'shared', 'realfiles')].find((d): d is string => d !== undefined && existsSync(join(d, 'SOURCES.md')));

/** Every Claude Code session transcript among them (not `history.jsonl`, a prompt log), relative to REALFILES. */
export function claudeCodeTranscripts(): string[] {
  if (!REALFILES) return [];
  const walk = (d: string): string[] => readdirSync(d).flatMap((e) => (statSync(join(d, e)).isDirectory() ? walk(join(d, e)) : [join(d, e)]));
  return walk(join(REALFILES, 'claude-code'))
    .filter((f) => f.endsWith('.jsonl') && !f.includes(`${'/'}history${'/'}`))
    .map((f) => relative(REALFILES!, f))
    .sort();
}

/** What SOURCES.md says of a file: its row's text (the counts it was described with). */
export function sourcesRow(file: string): string {
  const text = readFileSync(join(REALFILES!, 'SOURCES.md'), 'utf8');
  return text.split('\n').find((l) => l.startsWith(`| \`${file}\``)) ?? '';
}

/** The rewind/edited-prompt forks SOURCES.md counted in a file (0 where it names none). */
export function sourcesForks(file: string): number {
  return Number(/rewind\/edited-prompt forks (\d+)/.exec(sourcesRow(file))?.[1] ?? 0);
}

/** A transcript's lines, parsed. */
export function lines(file: string): Loose[] {
  return readFileSync(join(REALFILES!, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Loose);
}

/**
 * The usage the API reported, summed as a reader who knows only the format would: per message.id (else
 * requestId), the usage of its last line (the earlier lines of a streamed response carry its output so far).
 * A line of model `<synthetic>` is a reply Claude Code wrote itself (an interruption's "No response requested.",
 * zero usage): no call was made to the API.
 */
export function lastLineUsage(values: readonly Loose[]): { calls: number; input: number; output: number } {
  const last = new Map<string, Loose>();
  for (const v of values) if (v.type === 'assistant' && v.message?.usage && v.message.model !== '<synthetic>') last.set(v.message.id ?? v.requestId, v.message.usage);
  let input = 0;
  let output = 0;
  for (const u of last.values()) {
    input += (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    output += u.output_tokens ?? 0;
  }
  return { calls: last.size, input, output };
}

/** The ids of the tool calls the file holds a result for. */
export function answeredCalls(values: readonly Loose[]): Set<string> {
  const out = new Set<string>();
  for (const v of values) if (Array.isArray(v.message?.content)) for (const b of v.message.content) if (b?.type === 'tool_result') out.add(b.tool_use_id);
  return out;
}

/** The lines a Claude Code reader counts as a conversation's records: user and assistant messages, compaction boundaries. */
export function transcriptRecords(values: readonly Loose[]): Loose[] {
  return values.filter((v) => ((v.type === 'user' || v.type === 'assistant') && v.message && typeof v.message === 'object' && !Array.isArray(v.message)) || (v.type === 'system' && v.subtype === 'compact_boundary'));
}

/** A record's tool_use ids and the ids its tool_results answer. */
export function toolIds(record: Loose): { calls: string[]; answers: string[] } {
  const blocks: Loose[] = Array.isArray(record.message?.content) ? record.message.content : [];
  return { calls: blocks.filter((b) => b?.type === 'tool_use').map((b) => b.id), answers: blocks.filter((b) => b?.type === 'tool_result').map((b) => b.tool_use_id) };
}
