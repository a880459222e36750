import { basename } from 'node:path';

/** Aider's own names for its two histories (`--chat-history-file`, `--input-history-file` defaults). */
export const AIDER_CHAT_FILE = '.aider.chat.history.md';
export const AIDER_INPUT_FILE = '.aider.input.history';

/** The line each Aider session begins with in the chat history. */
export const SESSION_HEADER = '# aider chat started at';

export const isAiderChatName = (file: string): boolean => basename(file).toLowerCase() === AIDER_CHAT_FILE;
export const isAiderInputName = (file: string): boolean => basename(file).toLowerCase() === AIDER_INPUT_FILE;

/** Whether the head of a file is an Aider chat history (another name can be given with `--chat-history-file`). */
export const looksLikeAiderChat = (head: string): boolean => head.replace(/^\ufeff/, '').trimStart().startsWith(SESSION_HEADER);
