import { dialog, type BrowserWindow } from 'electron';
import { dirname } from 'node:path';
import { conversationExtensions } from '../../service/folders/browse-folders.js';
import { HandlerError } from '../../shared/errors.js';
import type { FolderShell } from '../../service/folders/folder-shell.js';

/** The system's folder dialog, for folder:pick (undefined when cancelled). */
export async function pickFolder(win: BrowserWindow | undefined): Promise<string | undefined> {
  const r = win ? await dialog.showOpenDialog(win, { properties: ['openDirectory'] }) : await dialog.showOpenDialog({ properties: ['openDirectory'] });
  return r.canceled ? undefined : r.filePaths[0];
}

/** A folder chosen in a menu (a recent one, or a file's), opened after asking whether unsaved edits may go. */
export async function openChosen(shell: FolderShell, dir: string): Promise<void> {
  try {
    await shell.open(dir, false);
  } catch (e) {
    if (!(e instanceof HandlerError && e.code === 'CONFLICT')) {
      dialog.showErrorBox('The folder cannot be opened', `${dir}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const answer = await dialog.showMessageBox({ type: 'warning', buttons: ['Cancel', 'Discard and Open'], defaultId: 0, cancelId: 0, message: 'There are unsaved edits', detail: `Opening ${dir} discards them.` });
    if (answer.response === 1) await shell.open(dir, true);
  }
}

/** File › Open File…: the file's folder opens (the file is one click away in it). */
export async function openFileFolder(shell: FolderShell): Promise<void> {
  const r = await dialog.showOpenDialog({ properties: ['openFile'], filters: [{ name: 'Conversations', extensions: conversationExtensions().map((e) => e.slice(1)) }] });
  if (!r.canceled && r.filePaths[0]) await openChosen(shell, dirname(r.filePaths[0]));
}
