import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
// Only the zod-free channel list: a sandboxed preload can require nothing but electron.
import { eventChannel, EVENT_NAMES, REQUEST_CHANNEL, REQUEST_NAMES, type EventName } from '../shared/channels.js';

/**
 * Exactly { request, subscribe }, allowlisted by channel name; ipcRenderer itself never reaches the page.
 */
export const bridge = {
  request(channel: string, input: unknown): Promise<unknown> {
    if (!(REQUEST_NAMES as readonly string[]).includes(channel)) return Promise.resolve({ ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `unknown channel ${channel}` } });
    return ipcRenderer.invoke(REQUEST_CHANNEL, channel, input);
  },
  subscribe(event: string, listener: (payload: unknown) => void): () => void {
    if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`unknown event ${event}`);
    const channel = eventChannel(event as EventName);
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
};

contextBridge.exposeInMainWorld('bridge', bridge);
