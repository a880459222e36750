import { createHash } from 'node:crypto';
import type { Codec, ConversationMeta } from './codec.js';
import { anthropicTools, bareTools, openAiTools } from './tools.js';
import { newInspectLog } from './inspect/codec.js';
import { newAtifTrajectory } from './atif/codec.js';
import { newOpenHandsTrajectory } from './openhands/codec.js';

/** A conversation for a new file: records of the codec's format, and what the file says beside them. */
export interface NewConversation {
  records: readonly unknown[];
  meta?: ConversationMeta;
  title?: string;
  /** Leading system text the format keeps apart from the messages (Anthropic's `system`, ShareGPT's `system`). */
  system?: string;
}

/** A fresh session id in Codex's style (a UUID whose first part is the time). */
const timeOrderedId = () => {
  const hex = Date.now().toString(16).padStart(12, '0');
  const rest = crypto.randomUUID().replace(/-/g, '').slice(12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${rest.slice(1, 4)}-${rest.slice(4, 8)}-${rest.slice(8, 20)}`;
};

/** Writes records through the codec from a document of its own holding `seed` (the codec lays out and links them). */
function throughCodec(codec: Codec, seed: string, records: readonly unknown[]): string {
  const doc = codec.parse(seed, '(new)');
  return codec.serialize(doc, [records]);
}

/**
 * The text of a new file of `codec`'s format holding these conversations, with the file-level parts the
 * format's tool expects: the tools each conversation declares, Codex's `session_meta` first, a Claude Code
 * session's chain (made by its writer).
 */
export function createDocument(codec: Codec, conversations: readonly NewConversation[], options: { cwd?: string; sessionId?: string } = {}): string {
  const first = conversations[0] ?? { records: [] };
  const tools = (c: NewConversation) => (c.meta?.tools && c.meta.tools.length > 0 ? c.meta.tools : undefined);
  const lines = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join('\n') + '\n';
  switch (codec.id) {
    case 'openai-chat': {
      const t = tools(first);
      return JSON.stringify(t ? { messages: first.records, tools: openAiTools(t) } : first.records, null, 4) + '\n';
    }
    case 'openai-chat-jsonl':
      return lines(conversations.map((c) => ({ messages: c.records, ...(tools(c) ? { tools: openAiTools(tools(c)!) } : {}) })));
    case 'openai-chat-dataset':
      return JSON.stringify(conversations.map((c) => ({ messages: c.records, ...(tools(c) ? { tools: JSON.stringify(bareTools(tools(c)!)) } : {}) })), null, 2) + '\n';
    case 'llamafactory-v1':
      return lines(conversations.map((c) => ({ messages: c.records, ...(tools(c) ? { tools: JSON.stringify(bareTools(tools(c)!)) } : {}) })));
    case 'sharegpt':
    case 'sharegpt-jsonl': {
      const entries = conversations.map((c) => ({
        conversations: c.records,
        ...(c.system ? { system: c.system } : {}),
        ...(tools(c) ? { tools: c.meta?.toolsText ?? JSON.stringify(bareTools(tools(c)!)) } : {}),
      }));
      return codec.id === 'sharegpt' ? JSON.stringify(entries, null, 2) + '\n' : lines(entries);
    }
    case 'anthropic-messages': {
      const t = tools(first);
      if (!t && !first.system) return JSON.stringify(first.records, null, 4) + '\n';
      return JSON.stringify({ ...(first.system ? { system: first.system } : {}), ...(t ? { tools: anthropicTools(t) } : {}), messages: first.records }, null, 4) + '\n';
    }
    case 'claude-ai-export':
      return JSON.stringify(conversations.map((c, i) => ({ uuid: crypto.randomUUID(), name: c.title ?? `conversation ${i + 1}`, chat_messages: c.records })), null, 4) + '\n';
    case 'claude-code':
      // The writer chains the lines (parentUuid) as it lays them out.
      return throughCodec(codec, '', first.records);
    case 'codex-rollout': {
      const meta = {
        timestamp: new Date().toISOString(),
        type: 'session_meta',
        payload: { id: options.sessionId ?? timeOrderedId(), timestamp: new Date().toISOString(), cwd: options.cwd ?? first.meta?.cwd ?? '/', originator: 'conversation-inspector', cli_version: first.meta?.version ?? '0.63.0', instructions: first.meta?.instructions ?? null, source: 'cli', model_provider: 'openai' },
      };
      // Each message item gets the event Codex's transcript shows it by (the writer adds it).
      return throughCodec(codec, JSON.stringify(meta) + '\n', first.records);
    }
    case 'chatgpt-export':
      return JSON.stringify(conversations.map((c, i) => chatGptConversation(c, i))) + '\n';
    case 'oasst-trees':
      return lines(conversations.map((c) => oasstTree(c)));
    case 'gemini-cli': {
      const now = new Date().toISOString();
      // Gemini CLI keys a project's sessions by the SHA-256 of its root folder.
      const projectHash = createHash('sha256').update(options.cwd ?? first.meta?.cwd ?? '/').digest('hex');
      return JSON.stringify({ sessionId: options.sessionId ?? crypto.randomUUID(), projectHash, startTime: now, lastUpdated: now, messages: first.records }, null, 2);
    }
    case 'gemini-cli-jsonl': {
      const now = new Date().toISOString();
      const header = { sessionId: options.sessionId ?? crypto.randomUUID(), projectHash: createHash('sha256').update(options.cwd ?? first.meta?.cwd ?? '/').digest('hex'), startTime: now, lastUpdated: now, kind: 'main' };
      return lines([header, ...first.records]);
    }
    case 'opencode-export': {
      const now = Date.now();
      return JSON.stringify({ info: { id: `ses_${crypto.randomUUID().replace(/-/g, '').slice(0, 26)}`, title: first.title ?? 'Imported conversation', directory: options.cwd ?? first.meta?.cwd ?? '/', time: { created: now, updated: now } }, messages: first.records }, null, 2) + '\n';
    }
    case 'copilot-cli-events': {
      const start = { type: 'session.start', data: { sessionId: options.sessionId ?? crypto.randomUUID(), version: 1, producer: 'conversation-inspector', copilotVersion: '1.0.61', startTime: new Date().toISOString(), context: { cwd: options.cwd ?? first.meta?.cwd ?? '/' } }, id: crypto.randomUUID(), timestamp: new Date().toISOString(), parentId: null };
      // The writer chains each event to the one before it (parentId) as it lays them out.
      return throughCodec(codec, JSON.stringify(start) + '\n', first.records);
    }
    case 'swe-agent-traj':
      // SWE-agent's own layout: the steps it replays, the history the model was sent, what the run ended with.
      return JSON.stringify({ environment: 'conversation-inspector', trajectory: [], history: first.records, info: {}, replay_config: null }, null, 2) + '\n';
    case 'sillytavern-chat': {
      const user = first.records.find((r) => (r as Loose).is_user === true) as Loose | undefined;
      const character = first.records.find((r) => (r as Loose).is_user === false) as Loose | undefined;
      const header = { user_name: user?.name ?? 'User', character_name: character?.name ?? 'Assistant', create_date: new Date().toISOString(), chat_metadata: {} };
      return lines([header, ...first.records]);
    }
    case 'aider-chat':
    case 'aider-input':
      // The codec lays out a new file itself: each conversation an Aider session with its header.
      return codec.serialize(codec.parse('', '(new)'), conversations.map((c) => c.records));
    case 'vscode-chat':
      // The codec places each request and its answer; the file around them is what "Export Chat…" writes.
      return throughCodec(codec, JSON.stringify({ version: 3, requesterUsername: 'user', responderUsername: 'GitHub Copilot', initialLocation: 'panel', requests: [] }, null, 2) + '\n', first.records);
    case 'continue-session':
      return throughCodec(codec, JSON.stringify({ sessionId: options.sessionId ?? crypto.randomUUID(), title: first.title ?? 'Imported conversation', workspaceDirectory: options.cwd ?? first.meta?.cwd ?? '', history: [] }), first.records);
    case 'swarms-memory':
      return throughCodec(codec, '# Agent Memory\n\n## Interaction Log\n\n', first.records);
    case 'copilot-cli-session':
      return JSON.stringify({ sessionId: options.sessionId ?? crypto.randomUUID(), startTime: new Date().toISOString(), chatMessages: first.records, timeline: [] }, null, 2);
    case 'cline-task-md':
      return codec.serialize(codec.parse('', 'cline_task_new.md'), [first.records]);
    case 'inspect-eval-json':
      return newInspectLog(conversations);
    case 'atif-trajectory':
      return newAtifTrajectory(first.records, { sessionId: options.sessionId ?? first.meta?.sessionId });
    case 'openhands-trajectory':
      return newOpenHandsTrajectory(first.records);
    case 'open-webui-export':
      // As Settings → Chats → Export writes it: JSON.stringify of the chat list, on one line.
      return JSON.stringify(conversations.map((c, i) => openWebUiChat(c, i)));
    case 'grok-export':
      return JSON.stringify({ conversations: conversations.map((c, i) => grokConversation(c, i)) }, null, 2) + '\n';
    case 'ai-studio-prompt':
      return JSON.stringify({ runSettings: { temperature: 1, model: 'models/gemini-2.5-pro', topP: 0.95, topK: 64, maxOutputTokens: 65536 }, systemInstruction: first.meta?.instructions ? { parts: [{ text: first.meta.instructions }] } : {}, chunkedPrompt: { chunks: first.records, pendingInputs: [{ text: '', role: 'user' }] } }, null, 2);
    default:
      if (codec.syntax === 'jsonl') return codec.capabilities.conversations === 'many' ? lines(conversations.map((c) => ({ messages: c.records }))) : lines(first.records);
      if (codec.syntax === 'json') return JSON.stringify(codec.capabilities.conversations === 'many' ? conversations.map((c) => c.records) : first.records, null, 4) + '\n';
      return throughCodec(codec, '[]\n', first.records);
  }
}

type Loose = Record<string, unknown>;

/** A conversation of a ChatGPT export: its messages one chain under a root without a message, the last current. */
function chatGptConversation(c: NewConversation, i: number): Loose {
  const root = crypto.randomUUID();
  const nodes = c.records.map((r) => r as Loose);
  const mapping: Record<string, Loose> = { [root]: { id: root, message: null, parent: null, children: nodes.length > 0 ? [nodes[0].id] : [] } };
  nodes.forEach((n, k) => (mapping[n.id as string] = { ...n, parent: k === 0 ? root : nodes[k - 1].id, children: k + 1 < nodes.length ? [nodes[k + 1].id] : [] }));
  const now = Date.now() / 1000;
  const id = crypto.randomUUID();
  return { title: c.title ?? `conversation ${i + 1}`, create_time: now, update_time: now, mapping, current_node: nodes.length > 0 ? nodes[nodes.length - 1].id : root, conversation_id: id, id };
}

/** An OASST tree of one path: each message the one reply of the one before it. */
function oasstTree(c: NewConversation): Loose {
  const id = crypto.randomUUID();
  const nodes: Loose[] = c.records.map((r) => ({ ...(r as Loose), message_tree_id: id }));
  for (let k = nodes.length - 1; k >= 0; k--) nodes[k] = { ...nodes[k], parent_id: k > 0 ? nodes[k - 1].message_id : null, replies: k + 1 < nodes.length ? [nodes[k + 1]] : [] };
  return { message_tree_id: id, tree_state: 'ready_for_export', prompt: nodes[0] ?? { message_id: id, parent_id: null, text: '', role: 'prompter', replies: [] } };
}

/** An Open WebUI chat row: its messages one chain in `history`, the last current, the flat copy the same path. */
function openWebUiChat(c: NewConversation, i: number): Loose {
  const nodes = c.records.map((r) => ({ ...(r as Loose) }));
  nodes.forEach((n, k) => {
    n.parentId = k > 0 ? nodes[k - 1].id : null;
    n.childrenIds = k + 1 < nodes.length ? [nodes[k + 1].id] : [];
  });
  const now = Math.floor(Date.now() / 1000);
  const title = c.title ?? `conversation ${i + 1}`;
  const models = [...new Set(nodes.flatMap((n) => (typeof n.model === 'string' && n.model ? [n.model] : [])))];
  const chat = { id: '', title, models, params: c.meta?.instructions ? { system: c.meta.instructions } : {}, history: { messages: Object.fromEntries(nodes.map((n) => [n.id as string, n])), currentId: nodes.length > 0 ? nodes[nodes.length - 1].id : null }, messages: nodes, tags: [], timestamp: now * 1000, files: [] };
  return { id: crypto.randomUUID(), user_id: '', title, chat, updated_at: now, created_at: now, share_id: null, archived: false, pinned: false, meta: {}, folder_id: null };
}

/** A Grok export conversation: each response answering the one before it. */
function grokConversation(c: NewConversation, i: number): Loose {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const responses = c.records.map((r) => r as Loose);
  return {
    conversation: { id, title: c.title ?? `conversation ${i + 1}`, create_time: now, modify_time: now },
    responses: responses.map((r, k) => ({ response: { ...r, conversation_id: id, parent_response_id: k > 0 ? (responses[k - 1]._id ?? responses[k - 1].response_id ?? null) : null } })),
  };
}
