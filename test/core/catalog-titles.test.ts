// Titles a file gives its conversations, as the session list shows them.
import { describe, expect, it } from 'vitest';
import type { ConversationDocument } from '../../src/core/formats/codec.js';
import { codecById } from '../../src/core/formats/registry.js';
import { conversationTitles } from '../../src/core/catalog/titles.js';

const titles = (...list: Array<string | undefined>) =>
  conversationTitles(codecById('openai-chat-jsonl')!, { conversations: list.map((title) => ({ title, records: [] })) } as unknown as ConversationDocument);

describe('titles', () => {
  it('a title a model wrote after its reasoning is the words after it; reasoning that never ended gives none', () => {
    expect(titles('<think>\nThe user wants a title for fixing the build.\n</think>\n\nFix the CI build')).toEqual(['Fix the CI build']);
    expect(titles('<thinking>short</thinking> Tax rounding')).toEqual(['Tax rounding']);
    expect(titles("<think> We are given the user's request and must")).toEqual([undefined]);
    expect(titles('Plain title about <think> tags')).toEqual(['Plain title about <think> tags']);
  });
});
