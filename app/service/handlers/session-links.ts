import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { agentIdOfFile, danglingParentOf, parentSessionOf, readAgentHead, runOfAgent, subagentFolderOf, taskRunsOf } from '../../../src/core/formats/claude-code/session-files.js';
import { isPlainObject } from '../../../src/core/message.js';
import { completeLines } from '../../../src/core/formats/syntax/list-scan.js';
import { readHead } from '../listing/head-peek.js';
import type { Handlers } from '../dispatch.js';
import type { HandlerContext } from './context.js';
import { openConversation } from './open-document.js';
import { foldedStart } from '../../../src/core/util/one-line.js';
import { claudeAgentKind, ownerOf, threadFilesOf } from '../../../src/core/sessions/thread-files.js';

/** A sub-agent file's head is read this far: its agent id and prompt are in the first lines. */
const HEAD_BYTES = 64 * 1024;
/** A session folder with more sub-agents than this lists the first ones (a runaway swarm). */
const MAX_AGENTS = 500;
/** Where a resumed session's earlier file is looked for: this many siblings, this many bytes, newest first. */
const MAX_SIBLINGS = 200;
const MAX_SIBLING_BYTES = 256 * 1024 * 1024;

/** A file's head as text, up to its last complete line when the limit cut it. */
function headText(file: string, limit: number): { text: string; size: number } {
  const { bytes, size } = readHead(file, limit);
  return { text: (bytes.length < size ? bytes.subarray(0, completeLines(bytes).end) : bytes).toString('utf8'), size };
}

function readMeta(file: string): { agentType?: string; description?: string; model?: string } {
  try {
    const meta = JSON.parse(headText(file, HEAD_BYTES).text) as unknown;
    if (!isPlainObject(meta)) return {};
    const s = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return { agentType: s(meta.agentType), description: s(meta.description), model: s(meta.model) };
  } catch {
    return {};
  }
}

/** The first sibling session file holding a message of this uuid (as a line's own `uuid`); `confine` says which may be read (and where they really are). */
function fileHolding(folder: string, self: string, uuid: string, confine: (path: string) => string | undefined): string | undefined {
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return undefined;
  }
  const files = names
    .map((n) => confine(join(folder, n)))
    .filter((f): f is string => f !== undefined && f !== self)
    .flatMap((f) => {
      try {
        const st = statSync(f);
        return st.isFile() ? [{ f, size: st.size, mtime: st.mtimeMs }] : [];
      } catch {
        return [];
      }
    })
    .sort((a, b) => b.mtime - a.mtime)
    .slice(0, MAX_SIBLINGS);
  const needle = new RegExp(`"uuid"\\s*:\\s*"${uuid.replace(/[^\w-]/g, '')}"`);
  let budget = MAX_SIBLING_BYTES;
  for (const { f, size } of files) {
    if (size > budget) continue;
    budget -= size;
    if (needle.test(readFileSync(f, 'utf8'))) return f;
  }
  return undefined;
}

/**
 * The files a Claude Code session is spread over: its sub-agents' own files (each with the Task call that ran
 * it), the session a sub-agent file belongs to, and the earlier file a resumed session goes on from. Paths stay
 * inside the opened folders.
 */
export function sessionLinkHandlers(ctx: HandlerContext): Pick<Handlers, 'conversation:links'> {
  const shown = (absolute: string): string | undefined => {
    try {
      ctx.roots.resolve(absolute);
      return ctx.roots.display(absolute);
    } catch {
      return undefined;
    }
  };
  /**
   * A Codex rollout's threads in files of their own (the rollouts it spawned, its reviews and guardians, each
   * with the row of the call that started it), and the session a child rollout is of: found in the Codex home's
   * sessions and archived_sessions inside the opened folders.
   */
  const codexLinks = (absolute: string, codec: { view(r: unknown): { parts: ReadonlyArray<{ kind: string; id?: string }> } }, records: readonly unknown[]) => {
    const confine = (p: string) => ctx.roots.confine(p);
    const rows = new Map<string, number>();
    records.forEach((r, row) => {
      for (const p of codec.view(r).parts) if (p.kind === 'tool-call' && p.id) rows.set(p.id, row);
    });
    const subagents = threadFilesOf(absolute, 'codex-rollout', records, confine).flatMap((t) => {
      const display = shown(t.file);
      if (!display) return [];
      const task = t.callId !== undefined ? rows.get(t.callId) : undefined;
      return [{ path: display, agentId: t.thread, bytes: t.bytes, kind: t.kind, title: t.name ?? t.kind, ...(t.role ? { agentType: t.role } : {}), ...(task !== undefined ? { task } : {}) }];
    });
    const owner = ownerOf(absolute, 'codex-rollout', confine);
    const parentShown = owner?.file ? shown(owner.file) : undefined;
    return {
      subagents,
      ...(owner ? { parent: { sessionId: owner.sessionId, thread: owner.thread, kind: owner.kind, ...(owner.name ? { name: owner.name } : {}), ...(parentShown ? { path: parentShown } : {}) } } : {}),
    };
  };
  return {
    'conversation:links': ({ path, conversation }) => {
      const { absolute, doc, conv } = openConversation(ctx, path, conversation);
      if (doc.codec.id === 'codex-rollout') return codexLinks(absolute, doc.codec, conv.records);
      if (doc.codec.id !== 'claude-code') return { subagents: [] };
      const records = conv.store ? conv.store.all : conv.records;
      const runs = taskRunsOf(records);
      // The row of each call the view shows, found once (a swarm's hundreds of agents each look theirs up).
      const rows = new Map<string, number>();
      conv.records.forEach((r, row) => {
        if (!isPlainObject(r) || !isPlainObject(r.message) || !Array.isArray(r.message.content)) return;
        for (const b of r.message.content) if (isPlainObject(b) && b.type === 'tool_use' && typeof b.id === 'string') rows.set(b.id, row);
      });
      const folder = subagentFolderOf(absolute);
      let names: string[] = [];
      try {
        names = readdirSync(folder).filter((n) => agentIdOfFile(n) !== undefined).sort().slice(0, MAX_AGENTS);
      } catch {
        // No sub-agent folder: sub-agents, if any, are in the file itself.
      }
      const subagents = names.flatMap((name) => {
        // Read at its real path, and only inside the opened folders (a sub-agent file or its folder may be a link).
        const file = ctx.roots.confine(join(folder, name));
        const display = file === undefined ? undefined : shown(join(folder, name));
        if (!file || !display) return [];
        let head: { text: string; size: number };
        try {
          head = headText(file, HEAD_BYTES);
        } catch {
          return [];
        }
        const bytes = head.size;
        const h = readAgentHead(head.text);
        const agentId = h.agentId ?? agentIdOfFile(name)!;
        const metaFile = ctx.roots.confine(join(folder, name.replace(/\.jsonl$/, '.meta.json')));
        const meta = metaFile ? readMeta(metaFile) : {};
        const run = runOfAgent(runs, h, agentIdOfFile(name));
        const task = run ? (rows.get(run.callId) ?? -1) : -1;
        const prompt = h.prompt !== undefined ? foldedStart(h.prompt, 120) : undefined;
        return [{ path: display, agentId, bytes, kind: claudeAgentKind(agentIdOfFile(name)!), ...(meta.description ?? prompt ? { title: meta.description ?? prompt } : {}), ...(meta.agentType ? { agentType: meta.agentType } : {}), ...(meta.model ? { model: meta.model } : {}), ...(task >= 0 ? { task } : {}) }];
      });
      const parentFile = parentSessionOf(absolute);
      let parent: { path: string } | undefined;
      if (parentFile) {
        const display = shown(parentFile);
        try {
          if (display && statSync(parentFile).isFile()) parent = { path: display };
        } catch {
          // The session file is gone: a sub-agent file left alone.
        }
      }
      // Every line of the file, the tool's own records too: a message can hang from a system line.
      const baseline = doc.file.doc.baseline as { kind?: string; lines?: { lines?: Array<{ value: unknown }> } } | undefined;
      const lines = baseline?.kind === 'records' && Array.isArray(baseline.lines?.lines) ? baseline.lines.lines.map((l) => l.value) : records;
      const dangling = parentFile ? undefined : danglingParentOf(lines);
      const earlier = dangling ? fileHolding(dirname(absolute), absolute, dangling, (f) => ctx.roots.confine(f)) : undefined;
      const earlierShown = earlier ? shown(earlier) : undefined;
      const agent = parent ? agentIdOfFile(absolute) : undefined;
      return {
        subagents,
        ...(parent ? { parent: { ...parent, sessionId: basename(dirname(dirname(absolute))), ...(agent ? { thread: readAgentHead(headText(absolute, HEAD_BYTES).text).agentId ?? agent, kind: claudeAgentKind(agent) } : {}) } } : {}),
        ...(dangling ? { continues: { uuid: dangling, ...(earlierShown ? { path: earlierShown } : {}) } } : {}),
      };
    },
  };
}
