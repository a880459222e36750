import type { ConversationDocument } from '../codec.js';
import type { JsonlRecordsBaseline } from '../shared/jsonl-document.js';
import { planJsonl } from '../syntax/jsonl.js';
import type { MessageTree } from '../../tree/message-tree.js';
import { chainNode, isCompactBoundary, relinkChain } from './chain.js';

/**
 * A Claude Code session's messages as the tree their `parentUuid` chain makes, as the file would be written now
 * (the chain relinked the way a save relinks it, so an edit shows where it lands). A message's parent is the
 * nearest message up its chain: the `system` and `progress` lines between two messages are links, not messages.
 */
export function claudeCodeTree(doc: ConversationDocument, records: readonly unknown[]): MessageTree {
  const b = doc.baseline as JsonlRecordsBaseline;
  const out = planJsonl(b.lines, b.slots, records);
  relinkChain(
    b.lines.lines.map((l) => l.value),
    out,
  );
  const n = records.length;
  const recordOfLine = new Int32Array(out.length).fill(-1);
  const lineOfUuid = new Map<string, number>();
  let k = 0;
  out.forEach((o, i) => {
    if (o.record) recordOfLine[i] = k++;
    const node = chainNode(o.value);
    if (node && !lineOfUuid.has(node.uuid)) lineOfUuid.set(node.uuid, i);
  });
  // The nearest message at or above a line, following the chain through the lines that are not messages.
  const messageAt = (line: number | undefined): number => {
    const seen = new Set<number>();
    for (let at = line; at !== undefined && !seen.has(at); ) {
      seen.add(at);
      if (recordOfLine[at] >= 0) return recordOfLine[at];
      const p = chainNode(out[at].value)?.parent;
      at = p ? lineOfUuid.get(p) : undefined;
    }
    return -1;
  };
  const parent = new Int32Array(n).fill(-1);
  const thread = new Array<string>(n).fill('main');
  const continues = new Map<number, number>();
  out.forEach((o, i) => {
    const r = recordOfLine[i];
    if (r < 0) return;
    const node = chainNode(o.value);
    if (!node) return;
    thread[r] = node.thread;
    parent[r] = node.parent ? messageAt(lineOfUuid.get(node.parent)) : -1;
    if (isCompactBoundary(o.value) && node.logicalParent) {
      const before = messageAt(lineOfUuid.get(node.logicalParent));
      if (before >= 0) continues.set(r, before);
    }
  });
  // Older sessions keep their sub-agents in the file without an agentId: each sidechain root starts one.
  const uuidOf = (r: number) => chainNode(records[r])?.uuid ?? String(r);
  for (let r = 0; r < n; r++) {
    if (thread[r] !== 'side:') continue;
    const p = parent[r];
    thread[r] = p >= 0 && p < r && thread[p].startsWith('side:') ? thread[p] : `side:${uuidOf(r).slice(0, 8)}`;
  }
  // Claude Code resumes from the newest line of the main thread.
  let active = -1;
  for (let i = out.length - 1; i >= 0 && active < 0; i--) {
    const node = chainNode(out[i].value);
    if (node?.transcript && node.thread === 'main') active = messageAt(i);
  }
  return { parent, thread, active, continues };
}
