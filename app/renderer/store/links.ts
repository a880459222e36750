import type { StateCreator } from 'zustand';
import type { RequestOutput } from '../../shared/contract.js';
import { request } from '../api/client.js';
import type { AppState } from './index.js';

export type SessionLinks = RequestOutput<'conversation:links'> & { path: string; conversation: number };

export interface LinksSlice {
  /** The files the open session is spread over (its sub-agents' files, its parent, the file it goes on from). */
  links: SessionLinks | undefined;
  loadLinks(): Promise<void>;
  /** The session a sub-agent file is of, opened at the Task call that ran it. */
  openParentSession(): Promise<void>;
}

export const createLinksSlice: StateCreator<AppState, [], [], LinksSlice> = (set, get) => ({
  links: undefined,
  loadLinks: async () => {
    const skeleton = get().skeleton;
    if (!skeleton || (skeleton.format !== 'claude-code' && skeleton.format !== 'codex-rollout')) {
      if (get().links) set({ links: undefined });
      return;
    }
    const { path, conversation } = skeleton;
    try {
      const links = await request('conversation:links', { path, conversation });
      if (get().skeleton?.path === path) set({ links: { ...links, path, conversation } });
    } catch {
      // Links are a help beside the file: without them it reads as it is.
      if (get().skeleton?.path === path) set({ links: undefined });
    }
  },
  openParentSession: async () => {
    const links = get().links;
    const parent = links?.parent;
    if (!links || !parent?.path) return;
    const from = links.path;
    await get().openConversation(parent.path, 0);
    await get().loadLinks();
    let task = get().links?.subagents.find((s) => s.path === from)?.task;
    const shown = get().skeleton;
    // A Task call before the session's last compaction is not among the rows shown since it: the whole session is.
    if (task === undefined && shown && !shown.whole && (shown.earlier ?? 0) > 0) {
      try {
        const { delta } = await request('conversation:path', { path: shown.path, conversation: shown.conversation, whole: true });
        await get().applyChange(delta);
        await get().loadLinks();
        task = get().links?.subagents.find((s) => s.path === from)?.task;
      } catch {
        // The session stays as it opened: since its compaction.
      }
    }
    if (task !== undefined) get().select(task);
  },
});
