import { storeCodec } from '../shared/store-codec.js';
import { openCodeExport } from './codec.js';

/**
 * OpenCode's sessions as OpenCode keeps them itself: its database (`opencode.db`, OpenCode 1.x) or, before it,
 * a folder of JSON files per session, message and part (`storage/`). Each session a conversation, each message
 * `{info, parts}` as `opencode export` prints it (see ./codec.ts), so the two read alike. Read-only: OpenCode
 * owns the store and may be writing it while it is read.
 */
export const openCodeStore = storeCodec({
  id: 'opencode-store',
  label: 'OpenCode sessions (its own store)',
  tool: 'OpenCode',
  store: 'opencode',
  readOnly: 'OpenCode’s own store (it may be writing it now): Export (Ctrl+K) or the CLI’s `convert` gives an editable copy',
  view: (r) => openCodeExport.view(r),
  capabilities: { toolCalls: true, reasoning: true, otherRecords: false, timestamps: true, toolParts: 'turn' },
});
