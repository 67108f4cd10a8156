/** The inspector keeps this much of an answer's body: enough to read an error page's message. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * The first RESPONSE_EXCERPT_BYTES of a body as text, never more bytes once stored as UTF-8: a
 * character cut at the end is dropped, bytes that are not UTF-8 read as U+FFFD (and a text that
 * grows past the cap that way is cut again), and NUL, which Postgres's jsonb refuses, as U+FFFD.
 */
export function responseExcerpt(chunks: Buffer[]): string {
  const head = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  let text = new TextDecoder('utf-8').decode(head, { stream: true }).replaceAll('\u0000', '\uFFFD');
  while (Buffer.byteLength(text) > RESPONSE_EXCERPT_BYTES) text = [...text].slice(0, -1).join('');
  return text;
}
