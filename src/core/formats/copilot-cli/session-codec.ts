import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { openAiFromView, openAiLoses, openAiView, openAiWithText } from '../openai-chat/view.js';
import { jsonRawText, parseJsonDocument, replaceAt, serializeJsonDocument, type JsonDocBaseline } from '../shared/json-document.js';
import { holdsTimeline, isTimelineEntry, noteLoneCompletions, timelineFromView, timelineView, timelineWithText } from './timeline.js';

/**
 * A GitHub Copilot CLI session as versions before 0.0.342 kept it (`~/.copilot/history-session-state/
 * session_<id>_<time>.json`, one JSON object rewritten as the session went on): `sessionId`, `startTime`,
 * `chatMessages` (what the model was sent: Chat Completions messages, `tool_calls` and `tool` results) and a
 * `timeline` of what the terminal showed (./timeline.ts), kept as the session's other records. A session whose
 * `chatMessages` are empty or absent keeps everything in its timeline: its entries are then the messages.
 * Newer versions write `session-state/<id>/events.jsonl` (./codec.ts).
 */

/** Where a file's messages are: its chat messages, or (none kept) its timeline. */
function messagesKey(root: unknown): 'chatMessages' | 'timeline' {
  if (!isPlainObject(root)) return 'chatMessages';
  const chat = Array.isArray(root.chatMessages) ? root.chatMessages : [];
  return chat.length === 0 && Array.isArray(root.timeline) && holdsTimeline(root.timeline) ? 'timeline' : 'chatMessages';
}

const firstPrompt = (entries: readonly unknown[]): string | undefined => {
  const e = entries.find((x) => isTimelineEntry(x) && x.type === 'user' && typeof x.text === 'string' && x.text.trim() !== '') as { text: string } | undefined;
  if (!e) return undefined;
  const line = e.text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};

export const copilotCliSession: Codec = {
  id: 'copilot-cli-session',
  label: 'Copilot CLI session (before 0.0.342)',
  tool: 'Copilot CLI',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: false, otherRecords: true, timestamps: false },
  sniffNeeds: ['chatMessages', 'timeline'],
  sniff(head) {
    if (/"chatMessages"\s*:\s*\[/.test(head) && /"(sessionId|startTime|timeline)"\s*:/.test(head)) return 45;
    // A session that kept no chat messages: its id and a timeline of the CLI's entry types.
    return /"timeline"\s*:\s*\[/.test(head) && /"sessionId"\s*:/.test(head) && /"type"\s*:\s*"(user|copilot|tool_call_requested|tool_call_completed|info)"/.test(head) ? 45 : 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'copilot-cli-session', (root, f, at) => {
      const key = messagesKey(root);
      if (!isPlainObject(root) || (key === 'chatMessages' && !Array.isArray(root.chatMessages))) throw new NotThisFormat('expected a Copilot CLI session: {"sessionId", "chatMessages": […], "timeline": […]}');
      const list = root[key] as unknown[];
      const meta = typeof root.sessionId === 'string' ? { meta: { sessionId: root.sessionId } } : {};
      if (key === 'timeline') {
        list.forEach((e, i) => {
          if (!isTimelineEntry(e)) throw new ConversationFileError(f, `timeline entry ${i} has no "type"`, at(['timeline', i]));
        });
        noteLoneCompletions(list);
        const title = firstPrompt(list);
        return { conversations: [{ records: list, ...meta, ...(title ? { title } : {}) }], paths: [list.map((_, i) => ['timeline', i])], otherRecords: 0 };
      }
      list.forEach((m, i) => {
        if (!isPlainObject(m) || typeof m.role !== 'string') throw new ConversationFileError(f, `chat message ${i} has no "role"`, at(['chatMessages', i]));
      });
      return { conversations: [{ records: list, ...meta }], paths: [list.map((_, i) => ['chatMessages', i])], otherRecords: Array.isArray(root.timeline) ? root.timeline.length : 0 };
    });
  },
  serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => replaceAt(root, [messagesKey((doc.baseline as JsonDocBaseline).root)], (conversations[0] ?? []).slice())),
  view: (record) => (isTimelineEntry(record) ? timelineView(record) : openAiView(record)),
  // A new message is what its neighbours are: a timeline entry in a session read from its timeline.
  fromView: (v, near) => (isTimelineEntry(near) ? timelineFromView(v) : openAiFromView(v)),
  loses: openAiLoses,
  withText: (record, text) => (isTimelineEntry(record) ? timelineWithText(record, text) : openAiWithText(record, text)),
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
