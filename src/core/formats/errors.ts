import { ValueError } from '../errors.js';

/**
 * A file that cannot be read as a conversation: names the file and, where known, the line and column.
 * A ValueError, as Python's JSON and YAML decode errors are.
 */
export class ConversationFileError extends ValueError {
  readonly file: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly reason: string;
  /** The file's syntax is sound (valid JSON, say): only its shape is none this tool reads. No editor fixes that. */
  readonly wellFormed: boolean;

  constructor(file: string, reason: string, position?: { line: number; column: number }, wellFormed = false) {
    const where = position ? `${file}:${position.line}:${position.column}` : file;
    super(`${where}: ${reason}`);
    this.name = 'ConversationFileError';
    this.file = file;
    this.reason = reason;
    this.line = position?.line;
    this.column = position?.column;
    this.wellFormed = wellFormed;
  }
}

/** 1-based line and column (in UTF-16 units, as editors count) of an offset. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * A file refused for what reading it would cost (see limits.ts): what it unpacks to, or declares, past a cap.
 * `cap` is the cap it met, so a reader with a smaller budget (the folder listing) can tell it from damage.
 */
export class TooBigError extends ConversationFileError {
  readonly cap: number;

  constructor(file: string, reason: string, cap: number, position?: { line: number; column: number }) {
    super(file, reason, position, true);
    this.name = 'TooBigError';
    this.cap = cap;
  }
}
