import type { Conversation } from './conversation.js';
import { ValueError } from './errors.js';
import { serializeConversation } from './formats/write.js';

export const OUTPUT_TYPES = [
  'list',
  'dict',
  'dictionary',
  'string',
  'str',
  'all',
  'final',
  'last',
  'json',
  'yaml',
  'dict-all-except-first',
  'str-all-except-first',
  'list-final',
  'dict-final',
] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

/** Turns a conversation into an agent's return value, one method per output type (spec: Output formats). */
export function historyOutputFormatter(conversation: Conversation, outputType: string): unknown {
  switch (outputType as OutputType) {
    case 'list':
      return conversation.returnMessagesAsList();
    case 'dict':
    case 'dictionary':
      return conversation.toDict();
    case 'string':
    case 'str':
    case 'all':
      return conversation.getStr();
    case 'final':
    case 'last':
      return conversation.getFinalMessageContent();
    case 'json':
      return conversation.toJson();
    case 'yaml':
      return serializeConversation(conversation.toDict(), { format: 'yaml' });
    case 'dict-all-except-first':
      return conversation.returnAllExceptFirst();
    case 'str-all-except-first':
      return conversation.returnAllExceptFirstString();
    case 'list-final':
      return conversation.returnListFinal();
    case 'dict-final':
      return conversation.returnDictFinal();
    default:
      throw new ValueError(`unknown output type ${JSON.stringify(outputType)}; expected one of: ${OUTPUT_TYPES.join(', ')}`);
  }
}
