import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** Phone shapes in notifications: "0341234567", "034 12 345 67", "+261341234567", Airtel's "336868624". */
export const PHONE_SOURCE = String.raw`\+?\d[\d ]{6,16}\d`;

const MG_MOBILE = /^3[2-9]\d{7}$/;

/**
 * Masks a counterparty number so the full number is never stored: E.164 with everything
 * hidden but the country code, the two-digit operator prefix and the last three digits
 * ("0343989873" -> "+26134****873"). Returns null when the text is not a phone number.
 */
export function maskPhone(raw: string): string | null {
  const compact = raw.replace(/[^\d+]/g, '');
  const national = malagasyNationalNumber(compact);
  if (national !== null) return maskNational('261', national);
  if (!compact.startsWith('+')) return null;
  const parsed = parsePhoneNumberFromString(compact);
  if (!parsed?.isPossible()) return null;
  return maskNational(parsed.countryCallingCode, parsed.nationalNumber);
}

/** The 9-digit national number of a Malagasy mobile, whatever prefix the SMS wrote. */
function malagasyNationalNumber(compact: string): string | null {
  let digits = compact.replace(/^\+/, '');
  if (digits.length === 12 && digits.startsWith('261')) digits = digits.slice(3);
  else if (digits.length === 10 && digits.startsWith('0')) digits = digits.slice(1);
  return MG_MOBILE.test(digits) ? digits : null;
}

function maskNational(countryCode: string, national: string): string {
  const hidden = '*'.repeat(Math.max(national.length - 5, 1));
  return `+${countryCode}${national.slice(0, 2)}${hidden}${national.slice(-3)}`;
}
