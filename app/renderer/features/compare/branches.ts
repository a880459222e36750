import { request } from '../../api/client.js';
import type { AppState } from '../../store/index.js';
import type { CompareSide } from '../../store/compare.js';

/** Whether the conversation shown has another branch to compare with (on the path shown or off it). */
export const hasBranches = (s: Pick<AppState, 'skeleton' | 'openPath'>): boolean => !!s.openPath && ((s.skeleton?.forks?.length ?? 0) > 0 || (s.skeleton?.forkCount ?? 0) > 0);

/**
 * The two ways at the fork of the selected message (or the nearest before it, else the first on the path):
 * A the way the session went on (as the CLI's `diff --at` has it), B the one shown, or the next. Where the path
 * shown holds no fork (they are all before its last compaction), B is the first branch off it (the branch tree's).
 */
export async function branchSides(s: Pick<AppState, 'skeleton' | 'openPath' | 'openConversationIndex' | 'selected'>): Promise<{ a: CompareSide; b: CompareSide } | undefined> {
  const path = s.openPath;
  const forks = s.skeleton?.forks ?? [];
  if (!path) return undefined;
  const conversation = s.openConversationIndex;
  if (forks.length > 0) {
    const at = s.selected ?? -1;
    const fork = [...forks].reverse().find((f) => f.at <= at) ?? forks[0];
    const main = fork.continued ?? fork.chosen;
    const other = fork.chosen !== main ? fork.chosen : (main + 1) % fork.options;
    const side = (option: number): CompareSide => ({ path, conversation, branch: { at: fork.at, option } });
    return { a: side(main), b: side(other) };
  }
  const { segments } = await request('conversation:outline', { path, conversation });
  const off = segments.find((g) => !g.shown);
  return off ? { a: { path, conversation }, b: { path, conversation, leaf: off.leaf } } : undefined;
}
