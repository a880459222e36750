import type { Result } from '../shared/contract.js';

export interface Frame {
  id: string | number | null;
  channel: unknown;
  input: unknown;
}

const badFrame = (message: string): Result<unknown> => ({ ok: false, error: { code: 'BAD_INPUT', message } });

/** A WebSocket frame as a request, or the answer to send when it is not one. Any bytes are safe here. */
export function parseFrame(data: unknown): { frame: Frame } | { answer: { id: null; result: Result<unknown> } } {
  let msg: unknown;
  try {
    msg = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
  } catch {
    return { answer: { id: null, result: badFrame('messages must be JSON') } };
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
    return { answer: { id: null, result: badFrame('a message is a JSON object {id, channel, input}') } };
  }
  const { id, channel, input } = msg as Record<string, unknown>;
  const safeId = typeof id === 'number' && Number.isFinite(id) ? id : typeof id === 'string' && id.length <= 100 ? id : null;
  return { frame: { id: safeId, channel, input } };
}

/**
 * The text of an answer. An answer that cannot be encoded (nested past what JSON.stringify can walk, or a
 * value JSON has no form for) becomes an error answer instead of an exception in the server.
 */
export function encodeAnswer(id: Frame['id'], result: Result<unknown>): string {
  try {
    return JSON.stringify({ id, result });
  } catch (e) {
    const why = e instanceof RangeError ? 'it is nested too deeply to send' : 'it cannot be encoded as JSON';
    return JSON.stringify({ id, result: { ok: false, error: { code: 'INTERNAL', message: `the answer was not sent: ${why}` } } });
  }
}
