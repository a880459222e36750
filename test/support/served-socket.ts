import WebSocket from 'ws';

export interface Answer {
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string };
}

/** A socket to a running `serve` (its printed URL), asking as the page does: `{id, channel, input}` frames. */
export async function socketTo(url: string): Promise<{ ask(channel: string, input: unknown): Promise<Answer>; close(): void }> {
  const { origin, searchParams, host } = new URL(url);
  const ws = new WebSocket(`ws://${host}/ws?token=${searchParams.get('token')}`, { origin });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 1;
  const waiting = new Map<number, (a: Answer) => void>();
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as { id?: number; result?: Answer };
    if (typeof msg.id === 'number' && msg.result) waiting.get(msg.id)?.(msg.result);
  });
  return {
    ask: (channel, input) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, channel, input }));
      }),
    close: () => ws.close(),
  };
}
