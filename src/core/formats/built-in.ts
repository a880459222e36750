import type { Codec } from './codec.js';

// The built-in formats as a listing and a search from the catalog meet them: what files they read, and each
// reader loaded by itself when a file of its format is read (a search whose hits are all Claude Code sessions
// loads Claude Code's reader only). formats/all.ts registers them all; a test holds the two to agree.

/** Every extension (lower case, with the dot) a built-in format reads. */
export const BUILT_IN_EXTENSIONS: readonly string[] = ['.json', '.yaml', '.yml', '.md', '.jsonl', '.traj', '.history'];

/** Each built-in format's codec by its id, loaded when asked for. */
export const BUILT_IN_LOADERS: Readonly<Record<string, () => Promise<Codec>>> = {
  'swarms-json': async () => (await import('./swarms/json-codec.js')).swarmsJson,
  'swarms-yaml': async () => (await import('./swarms/yaml-codec.js')).swarmsYaml,
  'swarms-memory': async () => (await import('./swarms/memory-md-codec.js')).swarmsMemory,
  'openai-chat': async () => (await import('./openai-chat/json-codec.js')).openAiChatJson,
  'openai-chat-jsonl': async () => (await import('./openai-chat/jsonl-codec.js')).openAiChatJsonl,
  'openai-chat-dataset': async () => (await import('./openai-chat/dataset-codec.js')).openAiChatDataset,
  'llamafactory-v1': async () => (await import('./llamafactory/codec.js')).llamaFactoryV1,
  'anthropic-messages': async () => (await import('./anthropic/codec.js')).anthropicMessages,
  'claude-ai-export': async () => (await import('./claude-ai/codec.js')).claudeAiExport,
  'chatgpt-export': async () => (await import('./chatgpt/codec.js')).chatGptExport,
  'claude-code': async () => (await import('./claude-code/codec.js')).claudeCode,
  'codex-rollout': async () => (await import('./codex/codec.js')).codexRollout,
  sharegpt: async () => (await import('./sharegpt/codecs.js')).shareGptJson,
  'sharegpt-jsonl': async () => (await import('./sharegpt/codecs.js')).shareGptJsonl,
  'langchain': async () => (await import('./langchain/codec.js')).langchainHistory,
  'oasst-trees': async () => (await import('./oasst/codec.js')).oasstTrees,
  'gemini-cli': async () => (await import('./gemini/codec.js')).geminiCliSession,
  'gemini-contents': async () => (await import('./gemini/contents-codec.js')).geminiContents,
  'gemini-cli-jsonl': async () => (await import('./gemini/jsonl-codec.js')).geminiCliJsonl,
  'opencode-export': async () => (await import('./opencode/codec.js')).openCodeExport,
  'copilot-cli-events': async () => (await import('./copilot-cli/codec.js')).copilotCliEvents,
  'swe-agent-traj': async () => (await import('./swe-agent/codec.js')).sweAgentTrajectory,
  'aider-chat': async () => (await import('./aider/codec.js')).aiderChatHistory,
  'aider-input': async () => (await import('./aider/input-history-codec.js')).aiderInputHistory,
  'cline-ui-messages': async () => (await import('./cline/ui-messages-codec.js')).clineUiMessages,
  'sillytavern-chat': async () => (await import('./sillytavern/codec.js')).sillyTavernChat,
  'vscode-chat': async () => (await import('./vscode-chat/codec.js')).vscodeChat,
  'continue-session': async () => (await import('./continue/codec.js')).continueSession,
  'inspect-eval-json': async () => (await import('./inspect/codec.js')).inspectEvalLog,
  'atif-trajectory': async () => (await import('./atif/codec.js')).atifTrajectory,
  'openhands-trajectory': async () => (await import('./openhands/codec.js')).openHandsTrajectory,
  'open-webui-export': async () => (await import('./open-webui/codec.js')).openWebUiExport,
  'grok-export': async () => (await import('./grok/codec.js')).grokExport,
  'ai-studio-prompt': async () => (await import('./ai-studio/codec.js')).aiStudioPrompt,
  'opencode-store': async () => (await import('./opencode/store-codec.js')).openCodeStore,
  'cursor-chats': async () => (await import('./cursor/codec.js')).cursorChats,
  'crush-store': async () => (await import('./crush/store-codec.js')).crushStore,
  'codex-thread-index': async () => (await import('./codex/thread-index-codec.js')).codexThreadIndex,
  'cline-task-md': async () => (await import('./cline/task-markdown-codec.js')).clineTaskMarkdown,
  'copilot-cli-session': async () => (await import('./copilot-cli/session-codec.js')).copilotCliSession,
  'otel-genai': async () => (await import('./otel/codec.js')).otelGenAi,
  'codex-history': async () => (await import('./codex/history-codec.js')).codexHistory,
  'codex-session-index': async () => (await import('./codex/session-index-codec.js')).codexSessionIndex,
  'claude-code-history': async () => (await import('./claude-code/history-codec.js')).claudeCodeHistory,
  'opencode-prompt-history': async () => (await import('./opencode/prompt-history-codec.js')).openCodePromptHistory,
  'gemini-cli-logs': async () => (await import('./gemini/logs-codec.js')).geminiCliLogs,
  'copilot-cli-workspace': async () => (await import('./copilot-cli/workspace-codec.js')).copilotCliWorkspace,
  'continue-session-index': async () => (await import('./continue/index-codec.js')).continueSessionIndex,
};
