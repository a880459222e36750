import { parentPort, workerData } from 'node:worker_threads';
import { dispatch } from '../dispatch.js';
import { createRuntime } from '../runtime.js';
import type { BackendOptions, FromService, SecretSnapshot, ToService } from './protocol.js';
import { RelayedSecretStore } from './relayed-secrets.js';
import { restoreEdits, snapshotOf } from '../editing/restore.js';

// The document service: parsing, open documents, editing, saving, planning and counting all run on this
// thread, so Electron's main thread and the browser-mode server only route messages and never wait on them.
// A big file gets a service of its own (started by the router), so that its parse holds up no one else.
const port = parentPort!;
const send = (msg: FromService) => port.postMessage(msg);
const { options, secrets } = workerData as { options: BackendOptions; secrets: SecretSnapshot };

const secretStore = new RelayedSecretStore(secrets, (name, value) => send({ type: 'secret', name, value }));
const runtime = createRuntime({ ...options, secrets: secretStore });
runtime.onEvent = (event, payload) => send({ type: 'event', event, payload });
runtime.onElsewhere = (events) => send({ type: 'elsewhere', events });
// A save about to write a file says what: the router keeps it with the file's edits (restore.ts).
runtime.context.saving = { ...runtime.context.saving, onWriting: (path, writing) => send({ type: 'writing', path, writing }) };
// A big file's own service (it watches nothing) tells the folder's listing what it learns of its file.
if (options.watch === false) runtime.context.listing.noted = (note) => send({ type: 'listing', note });

async function answer(msg: Extract<ToService, { type: 'request' }>): Promise<void> {
  const result = await dispatch(runtime.handlers, msg.channel, msg.input);
  try {
    send({ type: 'result', id: msg.id, result });
  } catch (e) {
    // An answer that cannot be cloned across threads (nested too deeply, say) becomes an error answer.
    send({ type: 'result', id: msg.id, result: { ok: false, error: { code: 'INTERNAL', message: `the answer could not be sent: ${(e as Error).message}` } } });
  }
}

port.on('message', async (msg: ToService) => {
  switch (msg.type) {
    case 'request':
      return answer(msg);
    case 'close':
      await runtime.close();
      return send({ type: 'closed' });
    case 'elsewhere':
      runtime.elsewhere = new Set(msg.paths);
      return;
    case 'changed-on-disk':
      return runtime.changedOnDisk(msg.events);
    case 'settings':
      return runtime.context.settings.adopt(msg.value);
    case 'secret':
      return secretStore.adopt(msg.name, msg.value);
    case 'listing':
      return runtime.context.listing.take(msg.note);
    case 'unsaved?':
      return send({ type: 'unsaved', id: msg.id, unsaved: runtime.context.documents.hasUnsaved() });
    case 'snapshot?':
      return send({ type: 'snapshot', id: msg.id, snapshot: snapshotOf(runtime.context.documents, msg.path) });
    case 'restore':
      try {
        const restored = await restoreEdits(runtime.handlers, runtime.context.documents, msg.path, msg.snapshot, msg.entries, msg.writing);
        return send({ type: 'restored', id: msg.id, restored });
      } catch (e) {
        return send({ type: 'restored', id: msg.id, error: (e as Error).message });
      }
  }
});
send({ type: 'ready' });
