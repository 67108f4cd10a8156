import { isAscii } from 'node:buffer';

/** The inspector keeps this much of an answer's body: enough to read an error page's message. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * The first RESPONSE_EXCERPT_BYTES of a body as text, never more bytes once stored as UTF-8: a
 * character cut at the end is dropped, bytes that are not UTF-8 read as U+FFFD (and a text that
 * grows past the cap that way is cut again), and NUL, which Postgres's jsonb refuses, as U+FFFD.
 * An empty or ASCII body without NUL (most receivers' "ok" or small JSON) is read without a
 * decoder: making one per delivery was 1.1% of the webhook worker's CPU.
 */
export function responseExcerpt(chunks: Buffer[]): string {
  const head = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).subarray(0, RESPONSE_EXCERPT_BYTES);
  // A NUL grows to three bytes as U+FFFD, so a body with one goes the long way, cut again below.
  if (isAscii(head) && !head.includes(0)) return head.toString('latin1');
  let text = new TextDecoder('utf-8').decode(head, { stream: true }).replaceAll('\u0000', '\uFFFD');
  while (Buffer.byteLength(text) > RESPONSE_EXCERPT_BYTES) text = [...text].slice(0, -1).join('');
  return text;
}
