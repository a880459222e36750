import { parentPort, workerData } from 'node:worker_threads';
import { dispatch } from '../dispatch.js';
import { createRuntime } from '../../server/runtime.js';
import type { BackendOptions, FromService, SecretSnapshot, ToService } from './protocol.js';
import { RelayedSecretStore } from './relayed-secrets.js';

// The document service: parsing, open documents, editing, saving, planning and counting all run on this
// thread, so Electron's main thread and the browser-mode server only route messages and never wait on them.
const port = parentPort!;
const send = (msg: FromService) => port.postMessage(msg);
const { options, secrets } = workerData as { options: BackendOptions; secrets: SecretSnapshot };

const runtime = createRuntime({
  ...options,
  secrets: new RelayedSecretStore(secrets, (name, value) => send({ type: 'secret', name, value })),
});
runtime.onEvent = (event, payload) => send({ type: 'event', event, payload });

port.on('message', async (msg: ToService) => {
  if (msg.type === 'close') {
    await runtime.close();
    send({ type: 'closed' });
    return;
  }
  const result = await dispatch(runtime.handlers, msg.channel, msg.input);
  try {
    send({ type: 'result', id: msg.id, result });
  } catch (e) {
    // An answer that cannot be cloned across threads (nested too deeply, say) becomes an error answer.
    send({ type: 'result', id: msg.id, result: { ok: false, error: { code: 'INTERNAL', message: `the answer could not be sent: ${(e as Error).message}` } } });
  }
});
send({ type: 'ready' });
