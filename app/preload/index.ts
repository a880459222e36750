import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_NAMES, REQUEST_NAMES } from '../shared/contract.js';

const REQUEST_CHANNEL = 'inspector:request';

/**
 * Exactly { request, subscribe }, allowlisted by channel name; ipcRenderer itself never reaches the page.
 */
export const bridge = {
  request(channel: string, input: unknown): Promise<unknown> {
    if (!(REQUEST_NAMES as string[]).includes(channel)) return Promise.resolve({ ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `unknown channel ${channel}` } });
    return ipcRenderer.invoke(REQUEST_CHANNEL, channel, input);
  },
  subscribe(event: string, listener: (payload: unknown) => void): () => void {
    if (!(EVENT_NAMES as string[]).includes(event)) throw new Error(`unknown event ${event}`);
    const channel = `inspector:event:${event}`;
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
};

contextBridge.exposeInMainWorld('bridge', bridge);
