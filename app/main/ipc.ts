import type { BrowserWindow, IpcMain } from 'electron';
import { EVENT_NAMES, eventChannel, REQUEST_CHANNEL, type EventName } from '../shared/channels.js';
import type { Result } from '../shared/contract.js';
import { isTrustedSender } from './security.js';


/** One IPC channel for every request, answered only for the app's own frame, routed to the document service. */
export function registerIpc(ipcMain: IpcMain, service: { request(channel: unknown, input: unknown): Promise<Result<unknown>> }): void {
  ipcMain.handle(REQUEST_CHANNEL, async (event, channel: unknown, input: unknown) => {
    const frame = event.senderFrame;
    if (!isTrustedSender(frame?.url, frame !== null && frame === frame?.top)) {
      return { ok: false, error: { code: 'FORBIDDEN', message: 'request from an untrusted frame' } };
    }
    return service.request(channel, input);
  });
}

export function pushEvent(window: BrowserWindow | undefined, event: EventName, payload: unknown): void {
  if (!window || window.isDestroyed() || !EVENT_NAMES.includes(event)) return;
  window.webContents.send(eventChannel(event), payload);
}
