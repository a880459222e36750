import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ValueError } from './errors.js';
import { readConversationFile } from './formats/read.js';
import { serializeConversation } from './formats/write.js';
import { orderedMessage, type Message } from './message.js';
import { writeFileAtomicSync } from './storage/atomic-write.js';
import { withFileLock } from './storage/file-lock.js';

export const DEFAULT_HISTORY_LIMIT = 10;
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * Conversations by id in a directory (Polos-style memory): `<dir>/<conversationId>.json`, a plain swarms list
 * the inspector opens like any other file. Appends take a lock file, so two processes appending to the same
 * conversation at once lose nothing.
 */
export class ConversationStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  private path(conversationId: string): string {
    if (!ID_PATTERN.test(conversationId) || conversationId.includes('..')) {
      throw new ValueError(`conversation id ${JSON.stringify(conversationId)} must be letters, digits, '.', '_' or '-' (and not '..')`);
    }
    return join(this.dir, `${conversationId}.json`);
  }

  private read(path: string): Message[] {
    return existsSync(path) ? readConversationFile(path, { format: 'json' }).messages : [];
  }

  /** The last `limit` messages of a conversation (oldest dropped); `limit` 0 returns none. */
  history(conversationId: string, { limit = DEFAULT_HISTORY_LIMIT }: { limit?: number } = {}): Message[] {
    if (!Number.isInteger(limit) || limit < 0) throw new ValueError(`limit must be a whole number of messages, not ${limit}`);
    const all = this.read(this.path(conversationId));
    return limit === 0 ? [] : all.slice(-limit);
  }

  /** Appends messages (timestamped when they have no timestamp) and returns the new length. */
  append(conversationId: string, ...messages: Array<Partial<Message> & { role: string }>): number {
    const path = this.path(conversationId);
    const stamped = messages.map((m) => orderedMessage({ ...m, timestamp: m.timestamp ?? new Date().toISOString() }));
    return withFileLock(`${path}.lock`, () => {
      const all = [...this.read(path), ...stamped];
      writeFileAtomicSync(path, serializeConversation(all, { format: 'json' }));
      return all.length;
    });
  }

  /** The conversation ids in the directory, sorted. */
  list(): string[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => f.endsWith('.json') && ID_PATTERN.test(f.slice(0, -5)))
      .map((f) => f.slice(0, -5))
      .sort();
  }
}
