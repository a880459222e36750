import fc from 'fast-check';

/**
 * Pieces that break writers: white space of every kind, line breaks old and new, control and format
 * characters, astral characters and lone surrogates, the syntax of YAML and JSON, words and numbers that
 * readers resolve to other types, and long runs.
 */
export const EDGE_ATOMS: readonly string[] = [
  ' ', '  ', '   ', '\t', '\n', '\n\n', '\r\n', '\r', '\u2028', '\u2029', '\x85', '\xa0', '\u3000', '\u200b', '\ufeff',
  '\x00', '\x07', '\x1b', '\x7f', '\x80', '\x9f', '\ud800', '\udfff', '\ufffe', '\uffff', '😀', '𝔘𝔫𝔦', 'é', 'ü', '中文', 'עברית', '\u0301',
  '#', ' #', '# ', ':', ': ', ':\n', '- ', '-', '--- ', '---', '...', '?', '? ', '|', '|-', '>', '>+', "'", "''", '"', '\\', '\\n', '%', '@', '`',
  '&a', '*a', '!', '!!str', '{', '}', '[', ']', ',', '~', '<<', '=', '*', '&',
  'null', 'Null', 'NULL', 'yes', 'Yes', 'no', 'NO', 'on', 'Off', 'y', 'n', 'Y', 'N', 'true', 'False', 'TRUE',
  '1e3', '1E3', '1.0', '1.', '.5', '-.5', '+.5', '0o17', '0x1F', '0x_1', '0777', '09', '1_000', '1:20', '1:20.5', '190:20:30', '.inf', '-.Inf', '.nan', 'NaN',
  '0', '-0', '+1', '12', '3.14', '6.02e+23', '1e-7', '2001-12-14', '2026-01-15T10:00:05', '2026-01-15 10:00:05.5 +01:00', '12:30', '0b101',
  'a', 'x', 'word', 'Hello world.', 'You are a helpful assistant.', '    indented', 'def f():\n    return 1\n',
  '{"a": [1, 2]}', '[1, 2]', 'a: b', 'key: value\nother: 2', '- item\n- item', '|\n  text',
];

const atom = fc.constantFrom(...EDGE_ATOMS);

/** A string built from edge pieces and random text, often with white space at one end or both. */
export const edgeString: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.oneof({ weight: 6, arbitrary: atom }, { weight: 2, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) }), { maxLength: 8 }),
    fc.constantFrom('', ' ', '\n', '  ', '\t', '\n    '),
    fc.constantFrom('', ' ', '\n', '\n\n', '  ', '\t'),
    fc.nat({ max: 20 }),
  )
  .map(([parts, lead, trail, long]) => {
    const body = parts.join('');
    // Now and then a long unbroken run (base64, minified code, hashes).
    const run = long === 0 ? 'x'.repeat(3000) : long === 1 ? 'aGVsbG8gd29ybGQ'.repeat(50) : '';
    return lead + body + run + trail;
  });

/** Numbers as they occur in files: integers, floats with and without exponents, negative zero avoided (JSON drops its sign). */
export const edgeNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.constantFrom(0, 1, -1, 21.5, 0.1, 1e21, 1.5e-7, -2.5e300, 5e-324, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 123456789.125),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
);

const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('name', 'tool_call_id', 'visible_to', 'turn', 'x-custom', 'args') }, { weight: 1, arbitrary: edgeString });

/** JSON values whose leaves lean on the edges, nested a few levels. */
export const edgeJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: edgeString },
    { weight: 2, arbitrary: edgeNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.dictionary(key, tie('value'), { maxKeys: 4 }) },
  ),
})).value;

/** A message as files hold them: the known keys, unknown ones kept, content a string or structured. */
export const edgeMessage: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      role: fc.oneof(fc.constantFrom('user', 'assistant', 'System', 'tool', 'System: ', 'yes', '1'), edgeString.filter((s) => s !== '')),
      content: fc.oneof({ weight: 4, arbitrary: edgeString }, { weight: 1, arbitrary: edgeJson }),
      timestamp: fc.constantFrom('2026-01-15T10:00:05', '2026-01-15T10:00:05.123Z', '2026-01-15 10:00:05'),
      message_id: fc.constantFrom('00000000-0000-0000-0000-000000000001', '1e3', '0777'),
      category: fc.constantFrom('input', 'output', 'no'),
      metadata: fc.dictionary(key, edgeJson, { maxKeys: 3 }),
      token_count: fc.nat({ max: 100_000 }),
      extra: edgeJson,
    },
    { requiredKeys: ['role'] },
  )
  .map((m) => {
    const { extra, ...rest } = m as Record<string, unknown> & { extra?: unknown };
    return extra === undefined ? rest : { ...rest, tool_calls: extra };
  });
