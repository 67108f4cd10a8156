import type { HttpRequest } from './uws.js';
import { errors } from '../errors/errors.js';

/**
 * Reading headers from uWebSockets.js 20.30, as measured with raw bytes on a socket
 * (test/fuzz/raw-headers.test.ts):
 * - getHeader() gives one character per byte (Latin-1): a byte of 0x80 or above inside a value
 *   reads as a character above U+007E, so it is seen and refused. (forEach() decodes UTF-8
 *   instead, with U+FFFD for bad sequences: not byte-exact, so values are read with getHeader.)
 * - The parser trims every byte below 33 *as a signed char* from both ends of a value: spaces and
 *   tabs, and also every byte of 0x80 or above. `clé` reads `cl`, `é` alone reads as an empty
 *   value. Those bytes never reach JavaScript, so they cannot be detected; a value made only of
 *   them is seen as present and empty (forEach lists it).
 * - A control byte (0x00-0x1f except tab) anywhere in a header makes uWS close the connection
 *   without an answer, before any handler runs.
 * - getHeader() returns the first of repeated headers; forEach() lists each.
 */

/** An `Idempotency-Key` as sent: the value getHeader reads and how many times the header came. */
export interface RawIdempotencyKey {
  value: string;
  count: number;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

/** Copied in the uWS handler, while req is alive. Counting walks every header: done only by the routes that take a key. */
export function copyIdempotencyKey(req: HttpRequest): RawIdempotencyKey {
  let count = 0;
  req.forEach((name) => {
    if (name === 'idempotency-key') count++;
  });
  return { value: count > 0 ? req.getHeader('idempotency-key') : '', count };
}

/**
 * The key, or undefined when none was sent. Sent empty (or with only bytes uWS trims), twice, or
 * with anything outside 0x21-0x7e, it is refused: read as absent or as another key, it would
 * send again or answer another request's batch.
 */
export function validIdempotencyKey(raw: RawIdempotencyKey | undefined): string | undefined {
  if (!raw || raw.count === 0) return undefined;
  if (raw.count > 1) throw errors.invalid('idempotency-key: sent more than once; send one key');
  if (!IDEMPOTENCY_KEY.test(raw.value)) {
    throw errors.invalid('idempotency-key: must be 1 to 128 printable ASCII characters (0x21 to 0x7e)');
  }
  return raw.value;
}
