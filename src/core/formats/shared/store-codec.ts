import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec, type CodecCapabilities, type ConversationMeta } from '../codec.js';
import type { MessageView } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument } from './json-document.js';

/**
 * The text a container gives for another app's store (a database, a folder of small files): its conversations
 * as the app keeps them, each record the app's own value, gathered into one JSON value so that everything
 * downstream (rows, counts, search, the Raw view) works as on any file. Never written back.
 */
export interface StoreText {
  store: string;
  conversations: Array<{ title?: string; meta?: ConversationMeta; records: unknown[] }>;
  /** Records of the store that are not messages, counted (kept in the app's store, not here). */
  other?: number;
}

export const storeText = (s: StoreText) => JSON.stringify(s, null, 1);

/** A read-only codec over a StoreText: the records are seen by `view`; nothing is edited in place. */
export function storeCodec(o: { id: string; label: string; tool: string; store: string; readOnly: string; view: (r: unknown) => MessageView; capabilities: Omit<CodecCapabilities, 'conversations'> }): Codec {
  return {
    id: o.id,
    label: o.label,
    tool: o.tool,
    syntax: 'json',
    // Never found by detection: only a container names it.
    extensions: [],
    readOnly: o.readOnly,
    capabilities: { conversations: 'many', ...o.capabilities },
    sniff: () => 0,
    parse(text, file) {
      return parseJsonDocument(text, file, o.id, (root) => {
        if (!isPlainObject(root) || root.store !== o.store || !Array.isArray(root.conversations)) throw new NotThisFormat(`not the ${o.label} this tool assembles`);
        const list = root.conversations.filter(isPlainObject);
        return {
          conversations: list.map((c) => ({
            records: Array.isArray(c.records) ? c.records : [],
            ...(typeof c.title === 'string' ? { title: c.title } : {}),
            ...(isPlainObject(c.meta) ? { meta: c.meta as ConversationMeta } : {}),
          })),
          paths: list.map((c, i) => (Array.isArray(c.records) ? c.records.map((_, k) => ['conversations', i, 'records', k]) : [])),
          otherRecords: typeof root.other === 'number' ? root.other : 0,
        };
      });
    },
    serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => ({ ...(root as object), conversations: ((root as StoreText).conversations ?? []).map((c, i) => ({ ...c, records: (conversations[i] ?? []).slice() })) })),
    view: o.view,
    fromView: (v) => v,
    loses: () => [`everything: ${o.label} is read-only here`],
    withText: () => undefined,
    rawText: (doc, _c, record) => jsonRawText(doc, record),
  };
}
