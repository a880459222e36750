import { anthropicMessages } from './anthropic/codec.js';
import { claudeAiExport } from './claude-ai/codec.js';
import { chatGptExport } from './chatgpt/codec.js';
import { oasstTrees } from './oasst/codec.js';
import { claudeCode } from './claude-code/codec.js';
import { codexRollout } from './codex/codec.js';
import { geminiCliSession } from './gemini/codec.js';
import { geminiContents } from './gemini/contents-codec.js';
import { langchainHistory } from './langchain/codec.js';
import { openAiChatJson } from './openai-chat/json-codec.js';
import { openAiChatJsonl } from './openai-chat/jsonl-codec.js';
import { openAiChatDataset } from './openai-chat/dataset-codec.js';
import { llamaFactoryV1 } from './llamafactory/codec.js';
import { registerCodec } from './registry.js';
import { shareGptJson, shareGptJsonl } from './sharegpt/codecs.js';
import { swarmsJson } from './swarms/json-codec.js';
import { swarmsMemory } from './swarms/memory-md-codec.js';
import { swarmsYaml } from './swarms/yaml-codec.js';

/** Every built-in format, registered once; more can be added with registerCodec. */
export const BUILT_IN_CODECS = [swarmsJson, swarmsYaml, swarmsMemory, openAiChatJson, openAiChatJsonl, openAiChatDataset, llamaFactoryV1, anthropicMessages, claudeAiExport, chatGptExport, claudeCode, codexRollout, shareGptJson, shareGptJsonl, langchainHistory, oasstTrees, geminiCliSession, geminiContents];
for (const codec of BUILT_IN_CODECS) registerCodec(codec);
