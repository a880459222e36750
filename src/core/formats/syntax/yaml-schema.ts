import type { ScalarTag } from 'yaml';

/**
 * How PyYAML (YAML 1.1, `yaml.safe_load`) resolves plain scalars, which is how the swarms files were written
 * and are read by their users. The regular expressions are PyYAML's own resolvers (resolver.py); the
 * conversions follow its SafeConstructor. Quoted and block scalars are always strings.
 *
 * Differences from PyYAML, each on purpose: a plain timestamp stays the string it is (JSON has no date
 * type, and the text is what the user wrote); a plain `=` (PyYAML's `value` tag, which `safe_load` refuses)
 * is the string "=".
 */
export const PYYAML_PLAIN = {
  null: /^(?:~|null|Null|NULL|)$/,
  bool: /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  int: /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/,
  float:
    /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
} as const;

function sexagesimal(digits: string, parse: (s: string) => number): number {
  let value = 0;
  for (const part of digits.split(':')) value = value * 60 + parse(part);
  return value;
}

function pyInt(source: string): number {
  let s = source.replace(/_/g, '');
  const sign = s[0] === '-' ? -1 : 1;
  if (s[0] === '+' || s[0] === '-') s = s.slice(1);
  if (s === '0') return 0;
  if (s.startsWith('0b')) return sign * Number.parseInt(s.slice(2), 2);
  if (s.startsWith('0x')) return sign * Number.parseInt(s.slice(2), 16);
  if (s[0] === '0') return sign * Number.parseInt(s, 8);
  if (s.includes(':')) return sign * sexagesimal(s, (p) => Number.parseInt(p, 10));
  return sign * Number.parseInt(s, 10);
}

function pyFloat(source: string): number {
  let s = source.replace(/_/g, '').toLowerCase();
  const sign = s[0] === '-' ? -1 : 1;
  if (s[0] === '+' || s[0] === '-') s = s.slice(1);
  if (s === '.inf') return sign * Infinity;
  if (s === '.nan') return NaN;
  if (s.includes(':')) return sign * sexagesimal(s, Number.parseFloat);
  return sign * Number.parseFloat(s);
}

const tag = (name: string, test: RegExp, resolve: (s: string) => unknown): ScalarTag => ({
  identify: () => false,
  default: true,
  tag: `tag:yaml.org,2002:${name}`,
  test,
  resolve,
});

/** The scalar tags of PyYAML's SafeLoader, for the `yaml` package's `customTags`. */
export const PYYAML_SCALAR_TAGS: ScalarTag[] = [
  tag('null', PYYAML_PLAIN.null, () => null),
  tag('bool', PYYAML_PLAIN.bool, (s) => /^(?:yes|true|on)$/i.test(s)),
  tag('int', PYYAML_PLAIN.int, pyInt),
  tag('float', PYYAML_PLAIN.float, pyFloat),
];
