const COMBINING_MARKS = /[\u0300-\u036f]/g;
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;
const CURLY_APOSTROPHES = /[\u2018\u2019\u02bc\u00b4`]/g;
// Gateways deliver concatenated SMS halves as "1/2 …", "(2/2) …".
const PART_PREFIX = /^\(?\d{1,2}\/\d{1,2}\)?\s+/;

/**
 * Brings every spelling of one notification to a single form before templates run:
 * accents dropped (operators send both "reçu" and "recu"), any Unicode space
 * (NBSP, narrow NBSP) and runs of spaces collapsed, curly apostrophes straightened,
 * multipart prefixes removed. Case is kept so names stay readable.
 */
export function normalizeBody(body: string): string {
  let text = body;
  // The fast path matters for throughput: most bodies are plain ASCII.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is for anything outside ASCII, control characters included.
  if (/[^\x00-\x7f]/.test(text)) {
    text = text.normalize('NFD').replace(COMBINING_MARKS, '').replace(ZERO_WIDTH, '');
    text = text.replace(CURLY_APOSTROPHES, "'");
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.replace(PART_PREFIX, '');
}
