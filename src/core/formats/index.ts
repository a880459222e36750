export { ConversationFileError, positionAt } from './errors.js';
export { readConversationFile, parseConversationText, formatFromPath, decodeText, checkSize, SUPPORTED_EXTENSIONS } from './read.js';
export { serializeConversation, writeConversationFile, baselineAfterWrite, type SerializeTarget } from './write.js';
export { stringifyJson, NEW_JSON_STYLE } from './json-writer.js';
export { stringifyYaml } from './yaml.js';
export * from './types.js';
