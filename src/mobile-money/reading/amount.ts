/** Digits with optional space, dot or comma separators: "10 000", "10.000", "10,000.00", "5916.47". */
export const NUMBER_SOURCE = String.raw`\d+(?:[ .,]\d+)*`;
/** Currency words seen in Malagasy notifications; all mean the Ariary (ISO 4217 MGA). */
export const CURRENCY_SOURCE = String.raw`(?:ariary|ar|mga)(?![a-z])`;
/** An amount with its currency on either side: "12 500 Ar", "500Ar", "Ar 300", "Ar20000", "10,000.00 MGA". */
export const MONEY_SOURCE = String.raw`(?:${CURRENCY_SOURCE} ?${NUMBER_SOURCE}|${NUMBER_SOURCE} ?${CURRENCY_SOURCE})`;

const CURRENCY_WORD = /(?:ariary|ar|mga)/gi;
const GROUPINGS: ReadonlyArray<[string, RegExp]> = [
  [' ', /^\d{1,3}(?: \d{3})+$/],
  ['.', /^\d{1,3}(?:\.\d{3})+$/],
  [',', /^\d{1,3}(?:,\d{3})+$/],
];

/**
 * Reads a money token ("1 080 Ar", "Ar 3437519.5", "10.000 Ar", "10,000.00 MGA") into minor
 * units (MGA has two decimals, minor = 100 × Ariary). Returns null when the digits cannot be
 * read without guessing, e.g. the malformed grouping "1 50 100": a wrong amount is worse than none.
 */
export function parseMoneyMinor(token: string): number | null {
  const digits = token.replace(CURRENCY_WORD, '').trim();
  if (!/^\d[\d .,]*$/.test(digits)) return null;
  const { integer, decimals } = splitDecimals(digits);
  if (integer === null) return null;
  const whole = readInteger(integer);
  if (whole === null) return null;
  const cents = decimals === '' ? 0 : Number(decimals.padEnd(2, '0'));
  const minor = whole * 100 + cents;
  return Number.isSafeInteger(minor) ? minor : null;
}

/** Separates a decimal part (1-2 digits after the last dot or comma) from the integer part. */
function splitDecimals(digits: string): { integer: string | null; decimals: string } {
  const last = Math.max(digits.lastIndexOf('.'), digits.lastIndexOf(','));
  if (last === -1) return { integer: digits, decimals: '' };
  const tail = digits.slice(last + 1);
  const head = digits.slice(0, last);
  if (/^\d{1,2}$/.test(tail)) return { integer: head, decimals: tail };
  if (tail.length === 3) return { integer: digits, decimals: '' }; // "10.000": a thousands separator
  return { integer: null, decimals: '' };
}

function readInteger(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  for (const [sep, grouped] of GROUPINGS) {
    if (grouped.test(text)) return Number(text.split(sep).join(''));
  }
  return null;
}
