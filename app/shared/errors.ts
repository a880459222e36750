import type { AppError, ErrorCode } from './contract.js';

/** A handler failure with a code the renderer can act on; turned into `{ ok: false, error }` by dispatch. */
export class HandlerError extends Error {
  readonly code: ErrorCode;
  readonly details: Omit<AppError, 'code' | 'message'>;
  constructor(code: ErrorCode, message: string, details: Omit<AppError, 'code' | 'message'> = {}) {
    super(message);
    this.name = 'HandlerError';
    this.code = code;
    this.details = details;
  }
}
