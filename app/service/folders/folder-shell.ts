import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import type { EventName, Result } from '../../shared/contract.js';
import { FOLDER_REQUEST_NAMES } from '../../shared/channels.js';
import { HandlerError } from '../../shared/errors.js';
import type { Backend } from '../backend/backend.js';
import { dispatch, type HandlerMap } from '../dispatch.js';
import { folderHandlers } from '../handlers/folders.js';
import { insideAny } from './browse-folders.js';
import type { FolderRequestName } from '../../shared/channels.js';
import { RecentFolders } from './recent-folders.js';

export interface FolderShellOptions {
  /** A document service for one folder. */
  start(dir: string): Backend;
  recents?: RecentFolders;
  /** Where browsing may go (browser mode); null where the platform's dialog chooses (Electron). */
  scope: string[] | null;
  pick?: () => Promise<string | undefined>;
  home?: string;
}

const isFolderRequest = (channel: unknown): boolean => (FOLDER_REQUEST_NAMES as readonly unknown[]).includes(channel);

/**
 * Owns the document service of the open folder and answers which folder that is. Opening another starts a
 * new service and stops the old one (its watcher, index and token workers with it); every window is told.
 */
export class FolderShell {
  private backend: Backend;
  private root: string;
  private readonly handlers: HandlerMap<FolderRequestName>;
  private readonly recents: RecentFolders;
  private opening: Promise<string> | undefined;
  onEvent: (event: EventName, payload: unknown) => void = () => {};

  constructor(dir: string, private readonly options: FolderShellOptions) {
    this.root = realpathSync(dir);
    this.backend = this.started(this.root);
    const recents = (this.recents = options.recents ?? new RecentFolders());
    recents.add(this.root);
    this.handlers = folderHandlers({
      current: () => [this.root],
      open: (d, discard) => this.open(d, discard),
      recents,
      scope: options.scope ? outermost(options.scope.map((s) => safeReal(s)).filter((s): s is string => s !== undefined)) : null,
      pick: options.pick,
      home: options.home ?? homedir(),
    });
  }

  private started(dir: string): Backend {
    const backend = this.options.start(dir);
    // Events of a service being replaced are of a folder no longer shown.
    backend.onEvent = (event, payload) => {
      if (backend === this.backend) this.onEvent(event, payload);
    };
    return backend;
  }

  /** The folders opened before, newest first, the open one left out (for Electron's File › Open Recent). */
  recentFolders(): Array<{ path: string; name: string }> {
    return this.recents.list().filter((r) => r.path !== this.root);
  }

  request(channel: unknown, input: unknown): Promise<Result<unknown>> {
    if (isFolderRequest(channel)) return dispatch(this.handlers, channel, input);
    return this.backend.request(channel, input);
  }

  /** Opens `dir` (a real path the handlers checked). One at a time: a second request waits for the first. */
  async open(dir: string, discard: boolean): Promise<string> {
    while (this.opening) await this.opening.catch(() => undefined);
    const run = this.replace(realpathSync(dir), discard);
    this.opening = run;
    try {
      return await run;
    } finally {
      this.opening = undefined;
    }
  }

  private async replace(dir: string, discard: boolean): Promise<string> {
    if (!discard && (await this.backend.unsaved())) throw new HandlerError('CONFLICT', 'there are unsaved edits: save them, or open the folder anyway and lose them');
    const previous = this.backend;
    // Started before anything changes: a folder that cannot be served leaves the open one as it was.
    this.backend = this.started(dir);
    this.root = dir;
    this.recents.add(dir);
    await previous.close().catch(() => undefined);
    this.onEvent('folder:opened', { root: dir });
    return dir;
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

/** The scope's folders without those inside another (the folder served, under the home folder). */
function outermost(dirs: string[]): string[] {
  const unique = [...new Set(dirs)];
  return unique.filter((d) => !unique.some((o) => o !== d && insideAny([o], d)));
}

function safeReal(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
