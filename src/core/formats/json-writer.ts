import type { JsonStyle } from './types.js';

export const NEW_JSON_STYLE: JsonStyle = { indent: '    ', newline: '\n', keySep: ': ', itemSep: ', ', escapeNonAscii: false };

function escapeNonAscii(json: string): string {
  // Python's ensure_ascii: every UTF-16 unit above 0x7F as a lowercase \uXXXX escape.
  return json.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

export function stringifyString(value: string, style: JsonStyle): string {
  const s = JSON.stringify(value);
  return style.escapeNonAscii ? escapeNonAscii(s) : s;
}

/** JSON text of `value` as it would stand at nesting `depth` in a file of the given style. */
export function stringifyJson(value: unknown, style: JsonStyle, depth = 0): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return stringifyString(value, style);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value.toString();
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return stringifyJson((value as { toJSON: () => unknown }).toJSON(), style, depth);
  }
  const { indent, newline } = style;
  const open = indent === null ? '' : newline + indent.repeat(depth + 1);
  const close = indent === null ? '' : newline + indent.repeat(depth);
  const sep = indent === null ? style.itemSep : ',' + open;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return '[' + open + value.map((v) => stringifyJson(v, style, depth + 1)).join(sep) + close + ']';
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([, v]) => v !== undefined && typeof v !== 'function',
  );
  if (entries.length === 0) return '{}';
  const members = entries.map(([k, v]) => stringifyString(k, style) + style.keySep + stringifyJson(v, style, depth + 1));
  return '{' + open + members.join(sep) + close + '}';
}
