import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { openAiFromView, openAiLoses, openAiView, openAiWithText } from '../openai-chat/view.js';
import { jsonRawText, parseJsonDocument, replaceAt, serializeJsonDocument } from '../shared/json-document.js';

/**
 * A GitHub Copilot CLI session as versions before 0.0.342 kept it (`~/.copilot/history-session-state/
 * session_<id>_<time>.json`, one JSON object rewritten as the session went on): `sessionId`, `startTime`,
 * `chatMessages` (what the model was sent: Chat Completions messages, `tool_calls` and `tool` results) and a
 * `timeline` of what the terminal showed (tool runs with their title, arguments and result log), kept as the
 * session's other records. Newer versions write `session-state/<id>/events.jsonl` (./codec.ts).
 */
export const copilotCliSession: Codec = {
  id: 'copilot-cli-session',
  label: 'Copilot CLI session (before 0.0.342)',
  tool: 'Copilot CLI',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: false, otherRecords: true, timestamps: false },
  sniffNeeds: ['chatMessages'],
  sniff(head) {
    return /"chatMessages"\s*:\s*\[/.test(head) && /"(sessionId|startTime|timeline)"\s*:/.test(head) ? 45 : 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'copilot-cli-session', (root, f, at) => {
      if (!isPlainObject(root) || !Array.isArray(root.chatMessages)) throw new NotThisFormat('expected a Copilot CLI session: {"sessionId", "chatMessages": […]}');
      const list = root.chatMessages;
      list.forEach((m, i) => {
        if (!isPlainObject(m) || typeof m.role !== 'string') throw new ConversationFileError(f, `chat message ${i} has no "role"`, at(['chatMessages', i]));
      });
      return {
        conversations: [{ records: list, ...(typeof root.sessionId === 'string' ? { meta: { sessionId: root.sessionId } } : {}) }],
        paths: [list.map((_, i) => ['chatMessages', i])],
        otherRecords: Array.isArray(root.timeline) ? root.timeline.length : 0,
      };
    });
  },
  serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => replaceAt(root, ['chatMessages'], (conversations[0] ?? []).slice())),
  view: openAiView,
  fromView: (v) => openAiFromView(v),
  loses: openAiLoses,
  withText: openAiWithText,
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
