import { createHash } from 'node:crypto';
import { scanUnits, type Finding, type ScanUnit } from './scan.js';
import { scannedLeaves, type JsonPath } from './leaves.js';

export type RecordFinding = Finding<JsonPath> & {
  /**
   * What a dismissal names: the rule and a hash of the text found (never the text). The same text found by the
   * same rule anywhere in a file is one false positive, dismissed once.
   */
  key: string;
};

/** A finding's key: its rule and the first 16 hex digits of the SHA-256 of what it found. */
export function findingKey(rule: string, value: string): string {
  return `${rule}:${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;
}

// Per record object: an edit replaces only the records it touches, so only those are looked into again.
const cache = new WeakMap<object, RecordFinding[]>();
const NONE: RecordFinding[] = [];

/**
 * The findings of each record, looked into once per record object (strings of a record that is not an object
 * are its own). Records not seen before are scanned together, in a few calls however many there are.
 */
export async function findingsOfRecords(records: readonly unknown[], onProgress?: (done: number, total: number) => void, cancelled?: () => boolean): Promise<RecordFinding[][]> {
  const out: RecordFinding[][] = new Array(records.length);
  const missing: number[] = [];
  records.forEach((r, i) => {
    const hit = r !== null && typeof r === 'object' ? cache.get(r) : undefined;
    if (hit) out[i] = hit;
    else missing.push(i);
  });
  // In slices, so that a long first scan says how far it is and can be stopped between them.
  const SLICE = 2000;
  for (let from = 0; from < missing.length; from += SLICE) {
    if (cancelled?.()) throw new Error('cancelled');
    const slice = missing.slice(from, from + SLICE);
    const units: ScanUnit<{ i: number; path: JsonPath }>[] = [];
    for (const i of slice) for (const l of scannedLeaves(records[i])) units.push({ text: l.text, where: { i, path: l.path } });
    const found = await scanUnits(units);
    const per = new Map<number, RecordFinding[]>();
    for (const f of found) {
      let list = per.get(f.where.i);
      if (!list) per.set(f.where.i, (list = []));
      list.push({ ...f, where: f.where.path, key: findingKey(f.rule, f.value) });
    }
    for (const i of slice) {
      const list = per.get(i) ?? NONE;
      out[i] = list;
      const r = records[i];
      if (r !== null && typeof r === 'object') cache.set(r, list);
    }
    onProgress?.(Math.min(missing.length, from + SLICE), missing.length);
    // A turn of the event loop between slices: a long first scan holds up no request.
    if (from + SLICE < missing.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}
