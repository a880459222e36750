import { ConversationFileError } from '../errors.js';
import { decodeText } from '../read.js';
import { containerJson, nameOf, startsWith, type Container } from './container.js';
import { unzipBounded, zipEntries } from './zip.js';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** The pieces of an .eval the JSON log is assembled from. */
const LOG_PIECE = /^(header|start|_journal\/start|results)\.json$|^samples\/[^/]+\.json$/;

function json(file: string, entries: ReadonlyMap<string, Uint8Array>, name: string): unknown {
  const bytes = entries.get(name);
  if (!bytes) return undefined;
  try {
    return JSON.parse(decodeText(bytes, `${file}#${name}`)) as unknown;
  } catch (e) {
    if (e instanceof ConversationFileError) throw e;
    throw new ConversationFileError(`${file}#${name}`, `not JSON (${(e as Error).message})`);
  }
}

const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * Inspect AI's `.eval` log (inspect_ai/log/_recorders/eval.py): a ZIP of the JSON log's pieces: `header.json`
 * (the log without samples; older logs: `start.json` or `_journal/start.json` and `results.json`), one
 * `samples/<id>_epoch_<n>.json` per sample, and summaries. Read as Inspect's `read_eval_log` assembles it: the
 * header's fields, then the samples sorted by epoch and id, as the JSON log holds them. Inspect rewrites the
 * whole archive itself; a ZIP writer is not worth a second copy of its layout here, so it is read-only.
 */
export const inspectEvalContainer: Container = {
  id: 'inspect-eval-zip',
  label: 'Inspect AI .eval archive',
  format: 'inspect-eval-json',
  extensions: ['.eval'],
  holds: (file, head) => file.toLowerCase().endsWith('.eval') && startsWith(head, ZIP),
  open(file, bytes, limits) {
    // The pieces the log is made of alone (not Inspect's summaries of them), their declared sizes checked
    // before any is inflated, their real bytes counted while they are.
    const listed = zipEntries(file, bytes);
    const entries = unzipBounded(file, bytes, listed.filter((e) => LOG_PIECE.test(e.name)), limits.maxInflatedBytes);
    const header = json(file, entries, 'header.json');
    let log: Record<string, unknown>;
    if (header !== undefined) log = { ...obj(header) };
    else {
      const start = json(file, entries, '_journal/start.json') ?? json(file, entries, 'start.json');
      if (start === undefined) throw new ConversationFileError(file, `a ZIP archive without Inspect's header.json or start.json (holds: ${listed.filter((e) => e.name.endsWith('.json')).slice(0, 6).map((e) => e.name).join(', ') || 'no JSON'})`, undefined, true);
      const results = obj(json(file, entries, 'results.json'));
      log = { ...obj(start), status: results.status ?? 'started', ...results };
    }
    const samples = [...entries.keys()]
      .filter((n) => /^samples\/[^/]+\.json$/.test(n))
      .map((n) => obj(json(file, entries, n)));
    const key = (s: Record<string, unknown>) => [typeof s.epoch === 'number' ? s.epoch : 0, s.id] as const;
    samples.sort((a, b) => {
      const [ea, ia] = key(a);
      const [eb, ib] = key(b);
      if (ea !== eb) return ea - eb;
      if (typeof ia === 'number' && typeof ib === 'number') return ia - ib;
      return String(ia).localeCompare(String(ib), undefined, { numeric: true });
    });
    log.samples = samples;
    return {
      text: containerJson(log, limits.maxInflatedBytes, file),
      format: 'inspect-eval-json',
      name: nameOf(file).replace(/\.eval$/i, '.json'),
      readOnly: 'an Inspect .eval archive is written by Inspect: edits are kept with Save As into the JSON log (.json)',
    };
  },
};
