import type { CST, Document } from 'yaml';
import { lazyModule } from '../../util/lazy-module.js';

const yaml = lazyModule<typeof import('yaml')>('yaml');
import { ConversationFileError } from '../errors.js';
import { MAX_NESTING_DEPTH, YAML_MAX_ALIAS_COUNT } from '../types.js';
import { PYYAML_SCALAR_TAGS } from './yaml-schema.js';
import { pyyamlPlainValue, pyyamlQuotedValue, withPlainBreaks, YAML11_BREAKS } from './yaml11-breaks.js';

/** What the `yaml` package is told: YAML 1.1 read the way PyYAML reads it, merge keys included. */
export const PYYAML_READ_OPTIONS = {
  version: '1.1',
  schema: 'failsafe',
  customTags: (base: unknown[]) => base.concat(PYYAML_SCALAR_TAGS),
  merge: true,
  strict: false,
  uniqueKeys: false,
} as const;

export const PYYAML_TO_JS = { maxAliasCount: YAML_MAX_ALIAS_COUNT } as const;

/** The deepest nesting of collections in a CST token, walked with an explicit stack (never recursion). */
function cstDepth(root: CST.Token | undefined, limit: number): { depth: number; offset: number } {
  if (!root) return { depth: 0, offset: 0 };
  const stack: Array<{ token: CST.Token; depth: number }> = [{ token: root, depth: 0 }];
  let max = 0;
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    let d = depth;
    if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      d = depth + 1;
      if (d > max) max = d;
      if (d > limit) return { depth: d, offset: token.offset };
      for (const item of token.items as CST.CollectionItem[]) {
        if (item.key) stack.push({ token: item.key, depth: d });
        if (item.value) stack.push({ token: item.value, depth: d });
      }
    } else if (token.type === 'document' && token.value) {
      stack.push({ token: token.value, depth: d });
    }
  }
  return { depth: max, offset: 0 };
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

/**
 * Parses one YAML document as PyYAML would resolve it. Nesting deeper than MAX_NESTING_DEPTH is refused
 * before the composer (which recurses) sees it: a few thousand levels crash the process, not just the parse.
 */
export function parseYamlText(text: string, file: string): Document.Parsed {
  const lines = new (yaml().LineCounter)();
  const tokens: CST.Token[] = [];
  const breaks = YAML11_BREAKS.test(text);
  const source = breaks ? withPlainBreaks(text) : text;
  for (const token of new (yaml().Parser)(lines.addNewLine).parse(source)) {
    tokens.push(token);
    if (token.type === 'document') {
      const { depth, offset } = cstDepth(token, MAX_NESTING_DEPTH);
      if (depth > MAX_NESTING_DEPTH) {
        const pos = lines.linePos(offset);
        throw new ConversationFileError(file, `nested more than ${MAX_NESTING_DEPTH} levels deep; refusing to read it`, { line: pos.line, column: pos.col });
      }
    }
  }
  const composer = new (yaml().Composer)(PYYAML_READ_OPTIONS as never);
  let doc: Document.Parsed | undefined;
  for (const d of composer.compose(tokens, true, text.length)) {
    if (!doc) {
      doc = d as Document.Parsed;
      continue;
    }
    const pos = lines.linePos(d.range?.[0] ?? 0);
    throw new ConversationFileError(file, 'invalid YAML: the file holds several YAML documents (separated by ---); expected one list of messages', { line: pos.line, column: pos.col });
  }
  if (!doc) throw new ConversationFileError(file, 'the file is empty (expected a list of messages)');
  const error = doc.errors[0];
  if (error) {
    const pos = lines.linePos(error.pos[0]);
    throw new ConversationFileError(file, `invalid YAML: ${firstLine(error.message)}`, { line: pos.line, column: pos.col });
  }
  if (breaks) rereadScalarsWithBreaks(doc, text);
  return doc;
}

/** Scalars that held a YAML 1.1 line break get the value PyYAML reads from their original text. */
function rereadScalarsWithBreaks(doc: Document.Parsed, text: string): void {
  yaml().visit(doc, {
    Scalar(_key, node) {
      if (!node.range) return;
      const original = text.slice(node.range[0], node.range[1]);
      if (!YAML11_BREAKS.test(original)) return;
      if (node.type === 'QUOTE_SINGLE' || node.type === 'QUOTE_DOUBLE') node.value = pyyamlQuotedValue(original);
      else if (node.type === 'PLAIN') node.value = pyyamlPlainValue(original);
    },
  });
}

/** A YAML text's plain value as PyYAML would load it; undefined when it is not valid YAML. */
export function loadYamlValue(text: string): unknown {
  try {
    return parseYamlText(text, '').toJS(PYYAML_TO_JS) as unknown;
  } catch {
    return undefined;
  }
}
