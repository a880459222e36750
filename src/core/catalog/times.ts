import { nameOf } from '../util/file-name.js';
/**
 * A message's time as files spell it, as an ISO time the catalog can sort and group by: ISO and what Date
 * reads, epoch milliseconds or seconds, and SillyTavern's "November 30, 2025 7:02pm". Undefined for none.
 */
export function isoTime(spelled: string | undefined): string | undefined {
  if (!spelled) return undefined;
  const s = spelled.trim();
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(s)) return s;
  if (/^\d{9,13}(\.\d+)?$/.test(s)) {
    const n = Number(s);
    return valid(new Date(n < 1e11 ? n * 1000 : n));
  }
  const ampm = /^(.*\d)\s*([ap])\.?m\.?$/i.exec(s);
  if (ampm) {
    const t = /^(.*?)(\d{1,2}):(\d\d)(?::(\d\d))?$/.exec(ampm[1].trim());
    if (t) {
      let h = Number(t[2]) % 12;
      if (ampm[2].toLowerCase() === 'p') h += 12;
      return valid(new Date(`${t[1].trim()} ${String(h).padStart(2, '0')}:${t[3]}:${t[4] ?? '00'}`));
    }
  }
  return valid(new Date(s));
}

function valid(d: Date): string | undefined {
  const ms = d.getTime();
  // Before 1990 or centuries ahead: not a time of a conversation, whatever it parsed as.
  return Number.isNaN(ms) || ms < 631152000000 || ms > 4102444800000 ? undefined : d.toISOString();
}

/**
 * When a session began as its file's name says (Codex's `rollout-2025-08-24T14-59-18-…`, Gemini CLI's
 * `session-2026-11-30T10-00-…`: the machine's local time), for a file whose messages carry no time.
 */
export function timeInName(file: string): string | undefined {
  const name = nameOf(file);
  const m = /(\d{4})-(\d\d)-(\d\d)T(\d\d)-(\d\d)(?:-(\d\d))?/.exec(name);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
  return valid(new Date(y, mo - 1, d, h, mi, s));
}
