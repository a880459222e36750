import type { Message } from '../../message.js';
import { NotThisFormat, type Codec, type ConversationDocument } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { parseYaml } from '../yaml.js';
import { serializeConversation } from '../write.js';
import type { ParsedConversation } from '../types.js';
import { agentRoles } from './json-codec.js';
import { swarmsFromView, swarmsLoses, swarmsView, swarmsWithText } from './view.js';

function rawOf(doc: ConversationDocument, record: unknown): string | undefined {
  const parsed = doc.baseline as ParsedConversation;
  const k = parsed.baseline.origin.get(record as object);
  const span = k === undefined ? undefined : parsed.baseline.elements[k];
  return span ? parsed.baseline.text.slice(span.start, span.end) : undefined;
}

/** The swarms `Conversation` class's YAML (PyYAML's layout), read as PyYAML reads it. */
export const swarmsYaml: Codec = {
  id: 'swarms-yaml',
  label: 'swarms conversation (YAML)',
  syntax: 'yaml',
  extensions: ['.yaml', '.yml'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: false, otherRecords: false, timestamps: true },
  sniff: (head) => (/(^|\n)\s*-?\s*role\s*:/.test(head) || /conversation_history\s*:/.test(head) || /^\s*\[\s*\]\s*$/.test(head) ? 20 : 1),
  parse(text, file) {
    let parsed: ParsedConversation;
    try {
      parsed = parseYaml(text, file);
    } catch (e) {
      if (e instanceof ConversationFileError && /^expected a list of messages/.test(e.reason)) throw new NotThisFormat(e.reason, e.line === undefined ? undefined : { line: e.line, column: e.column ?? 1 });
      throw e;
    }
    return { codec: 'swarms-yaml', conversations: [{ records: parsed.messages }], otherRecords: 0, text, baseline: parsed, roles: agentRoles(parsed.root) };
  },
  serialize(doc, conversations) {
    const { format, shape, root, baseline } = doc.baseline as ParsedConversation;
    return serializeConversation((conversations[0] ?? []) as Message[], { format, shape, root, baseline });
  },
  view: swarmsView,
  namedSpeakers: true,
  fromView: (view) => swarmsFromView(view),
  loses: swarmsLoses,
  withText: swarmsWithText,
  rawText: (doc, _c, record) => rawOf(doc, record),
};
