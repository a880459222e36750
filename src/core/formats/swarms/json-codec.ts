import { isPlainObject, type Message } from '../../message.js';
import { NotThisFormat, type Codec, type ConversationDocument } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { parseJson } from '../json.js';
import { jsonContainers, parseJsonText, rewriteJsonContainers, type JsonBaseline } from '../syntax/json-doc.js';
import { serializeConversation } from '../write.js';
import type { ParsedConversation } from '../types.js';
import { validateMessages } from '../validate.js';
import { swarmsFromView, swarmsLoses, swarmsView, swarmsWithText } from './view.js';
import type { RoleDeclaration } from '../roles.js';

/** The `Conversation` class's own files (bare list, wrapper, older `history` key), or an Agent's saved state. */
type SwarmsJsonBaseline = { kind: 'conversation'; parsed: ParsedConversation } | { kind: 'agent'; json: JsonBaseline };

const AGENT_PATH = ['short_memory', 'conversation_history'] as const;

const capabilities = { conversations: 'one', toolCalls: true, reasoning: false, otherRecords: false, timestamps: true } as const;

function rawOf(doc: ConversationDocument, record: unknown): string | undefined {
  const b = doc.baseline as SwarmsJsonBaseline;
  if (b.kind === 'conversation') {
    const k = b.parsed.baseline.origin.get(record as object);
    const span = k === undefined ? undefined : b.parsed.baseline.elements[k];
    return span ? b.parsed.baseline.text.slice(span.start, span.end) : undefined;
  }
  const c = b.json.containers[0];
  const k = c?.origin.get(record as object);
  const span = k === undefined ? undefined : c.elements[k];
  return span ? doc.text.slice(span.start, span.end) : undefined;
}

/**
 * A swarms Agent writes the user's turns under its `user_name` and its own under its `agent_name`; a
 * Conversation's metadata may name its `user`.
 */
export function agentRoles(root: unknown): RoleDeclaration[] {
  if (!isPlainObject(root)) return [];
  const meta = isPlainObject(root.metadata) ? root.metadata : {};
  const out: RoleDeclaration[] = [];
  if (typeof root.user_name === 'string') out.push({ role: root.user_name, normalRole: 'user', from: 'the agent’s user_name' });
  if (typeof meta.user === 'string') out.push({ role: meta.user, normalRole: 'user', from: 'the conversation’s user' });
  if (typeof root.agent_name === 'string') out.push({ role: root.agent_name, normalRole: 'assistant', from: 'the agent’s agent_name' });
  return out;
}

export const swarmsJson: Codec = {
  id: 'swarms-json',
  label: 'swarms conversation (JSON)',
  syntax: 'json',
  extensions: ['.json'],
  capabilities,
  sniffNeeds: ['conversation_history', 'history', 'role'],
  sniff(head) {
    const start = head.trimStart()[0];
    if (start === '{') {
      if (/"short_memory"\s*:/.test(head) && /"conversation_history"\s*:/.test(head)) return 40;
      if (/"conversation_history"\s*:\s*\[/.test(head)) return 30;
      if (/"history"\s*:\s*\[/.test(head) && /"role"\s*:/.test(head)) return 20;
      return 0;
    }
    if (start !== '[') return 0;
    if (!/"role"\s*:/.test(head)) return 0;
    // Keys only swarms writes make it certain; a bare [{role, content}] list is swarms too unless another
    // format's marks (OpenAI tool_calls, typed content blocks) say more.
    return /"(message_id|token_count|timestamp|category)"\s*:/.test(head) ? 25 : 10;
  },
  parse(text, file) {
    const root = parseJsonText(text, file);
    if (isPlainObject(root) && isPlainObject(root.short_memory) && Array.isArray(root.short_memory.conversation_history)) {
      const json = jsonContainers(text, root, [AGENT_PATH]);
      const list = root.short_memory.conversation_history as unknown[];
      const spans = json.containers[0]?.elements ?? [];
      const records = validateMessages(list, file, text, spans.map((s) => s.start));
      return { codec: 'swarms-json', conversations: [{ title: typeof root.agent_name === 'string' ? root.agent_name : undefined, records }], otherRecords: 0, text, baseline: { kind: 'agent', json } satisfies SwarmsJsonBaseline, roles: agentRoles(root) };
    }
    let parsed: ParsedConversation;
    try {
      parsed = parseJson(text, file, { value: root });
    } catch (e) {
      // Valid JSON of another shape is another format's business; a broken swarms file is an error here.
      if (e instanceof ConversationFileError && /^expected a list of messages|^message \d+ (is|has no|: "role")/.test(e.reason)) {
        throw new NotThisFormat(e.reason, e.line === undefined ? undefined : { line: e.line, column: e.column ?? 1 });
      }
      throw e;
    }
    return { codec: 'swarms-json', conversations: [{ records: parsed.messages }], otherRecords: 0, text, baseline: { kind: 'conversation', parsed } satisfies SwarmsJsonBaseline, roles: agentRoles(parsed.root) };
  },
  serialize(doc, conversations, options) {
    const b = doc.baseline as SwarmsJsonBaseline;
    const records = (conversations[0] ?? []) as Message[];
    if (b.kind === 'agent') return rewriteJsonContainers(doc.text, b.json, [records]);
    const { format, shape, root, baseline } = b.parsed;
    return serializeConversation(records, { format, shape, root, baseline, immutable: options?.immutable });
  },
  view: swarmsView,
  namedSpeakers: true,
  fromView: (view) => swarmsFromView(view),
  loses: swarmsLoses,
  withText: swarmsWithText,
  rawText: (doc, _c, record) => rawOf(doc, record),
};

