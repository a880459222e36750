/**
 * A time for a message put between two others by hand: between theirs (the k-th of n put there, evenly apart),
 * written as they write theirs (UTC with a Z, or local time without a zone, with as many fraction digits: the
 * swarms class writes microseconds), so that the file stays in order. One neighbour with a time: its time.
 * None: undefined (the format decides).
 */
export function timestampBetween(before: string | undefined, after: string | undefined, k = 0, n = 1): string | undefined {
  const a = before === undefined ? undefined : parse(before);
  const b = after === undefined ? undefined : parse(after);
  const first = a ?? b;
  if (!first) return undefined;
  // Written as the one before it, as finely as the finer of the two (a time between whole seconds needs digits).
  const like = a && b && a.utc === b.utc ? { ...a, digits: Math.max(a.digits, b.digits) } : first;
  const micros = a && b ? a.micros + Math.round(((b.micros - a.micros) * (k + 1)) / (n + 1)) : like.micros;
  return write(like, micros);
}

const SHAPE = /^(\d{4}-\d{2}-\d{2})([T ])(\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/;

interface Stamp {
  micros: number;
  sep: string;
  digits: number;
  utc: boolean;
}

function parse(text: string): Stamp | undefined {
  const m = SHAPE.exec(text.trim());
  if (!m) {
    const ms = Date.parse(text);
    return Number.isFinite(ms) ? { micros: ms * 1000, sep: 'T', digits: 3, utc: true } : undefined;
  }
  const [, day, sep, time, fraction = '', zone] = m;
  const whole = Date.parse(`${day}T${time}${zone ?? ''}`);
  if (!Number.isFinite(whole)) return undefined;
  return { micros: whole * 1000 + Number(fraction.slice(0, 6).padEnd(6, '0')), sep, digits: fraction.length, utc: zone !== undefined };
}

function write(like: Stamp, micros: number): string {
  const ms = Math.floor(micros / 1000);
  const d = new Date(ms);
  const pad = (x: number, w = 2) => String(x).padStart(w, '0');
  // A zone other than Z is written as Z: the same instant, and what every reader takes.
  const [y, mo, day, h, mi, s] = like.utc ? [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()] : [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()];
  const sub = micros - Math.floor(micros / 1e6) * 1e6;
  const frac = like.digits === 0 ? '' : `.${pad(sub, 6).padEnd(like.digits, '0').slice(0, like.digits)}`;
  return `${pad(y, 4)}-${pad(mo)}-${pad(day)}${like.sep}${pad(h)}:${pad(mi)}:${pad(s)}${frac}${like.utc ? 'Z' : ''}`;
}
