import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { errors } from '../errors/errors.js';
import { provablyValidInternational } from './international-number.js';

/**
 * Recipients as E.164. National numbers are read in the organization's default country. The
 * `max` metadata checks digit patterns, not just lengths, so "+261 34" is refused here instead
 * of failing later on the phone.
 */
export function normalizeRecipient(raw: string, defaultCountry: string): string | null {
  const trimmed = raw.trim();
  const international = provablyValidInternational(trimmed, defaultCountry);
  if (international !== undefined) return international;
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}

/** All or nothing: the first recipient that is not a phone number refuses the request, by index. */
export function normalizeRecipients(to: string | string[], defaultCountry: string): string[] {
  const list = Array.isArray(to) ? to : [to];
  return list.map((raw, i) => {
    const e164 = normalizeRecipient(raw, defaultCountry);
    if (e164 === null) {
      const field = Array.isArray(to) ? `to[${i}]` : 'to';
      throw errors.invalid(`${field}: ${JSON.stringify(raw)} is not a phone number`);
    }
    return e164;
  });
}
