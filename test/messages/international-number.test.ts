import { describe, expect, it } from 'vitest';
import { getCountries, getExampleNumber, Metadata, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/examples.mobile.json';
import { provablyValidInternational } from '../../src/messages/international-number.js';
import { normalizeRecipient } from '../../src/messages/recipients.js';

/** What libphonenumber-js alone says of a recipient (the behaviour the shortcut must keep). */
function libraryAnswer(raw: string, defaultCountry: string): string | null {
  const parsed = parsePhoneNumberFromString(raw.trim(), defaultCountry as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}

/** A deterministic generator, so a failure names numbers that can be tried again. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** The numbering plan of a calling code: its national prefix and lengths (the library's typings omit them). */
const plans = new Metadata() as unknown as {
  selectNumberingPlan(country: string): void;
  numberingPlan: { nationalPrefix(): string | undefined; possibleLengths(): number[] | undefined };
};

/**
 * For every country: its example mobile number, then variations around it: other digits in the
 * tail, one digit more or less, a leading 0, random numbers of several lengths, and numbers of
 * the plan's lengths that begin with its national prefix (the library strips such a prefix from
 * some of them: +375 810… is not a valid Belarusian number). Valid and invalid alike, in E.164
 * shape and with spaces.
 */
function candidates(): string[] {
  const next = random(261);
  const digit = () => String(Math.floor(next() * 10));
  const out: string[] = [];
  for (const country of getCountries()) {
    const example = getExampleNumber(country, examples);
    if (!example) continue;
    const cc = example.countryCallingCode;
    const nsn = example.nationalNumber as string;
    plans.selectNumberingPlan(country);
    const prefix = plans.numberingPlan.nationalPrefix();
    for (const length of prefix ? (plans.numberingPlan.possibleLengths() ?? []) : []) {
      for (let i = 0; i < 80; i++) {
        let n = prefix!;
        while (n.length < length) n += digit();
        out.push(`+${cc}${n}`);
      }
    }
    out.push(`+${cc}${nsn}`, `+${cc}0${nsn}`, `+${cc}${nsn}${digit()}`, `+${cc}${nsn.slice(0, -1)}`, ` +${cc}${nsn} `, `+${cc} ${nsn}`);
    for (let i = 0; i < 40; i++) {
      const keep = Math.floor(next() * nsn.length);
      let tail = '';
      for (let j = keep; j < nsn.length; j++) tail += digit();
      out.push(`+${cc}${nsn.slice(0, keep)}${tail}`);
    }
    for (let length = 4; length <= 14; length += 2) {
      let n = '';
      for (let j = 0; j < length; j++) n += digit();
      out.push(`+${cc}${n}`);
    }
  }
  return out;
}

describe('recipients in E.164: the shortcut past libphonenumber-js', () => {
  const numbers = candidates();

  it("answers only for numbers the library calls valid, with the library's E.164, and for most of those", () => {
    let valid = 0;
    let answered = 0;
    for (const country of ['MG', 'FR', 'US']) {
      for (const raw of numbers) {
        const library = libraryAnswer(raw, country);
        const shortcut = provablyValidInternational(raw.trim(), country);
        if (library !== null) valid += 1;
        if (shortcut === undefined) continue;
        answered += 1;
        expect({ raw, country, answer: shortcut }).toEqual({ raw, country, answer: library });
      }
    }
    // Shared codes (+1, +7, +44…) and plans whose national prefix pattern matches anything (AR) go to the library.
    expect(answered / valid).toBeGreaterThan(0.5);
  });

  it('leaves normalizeRecipient answering exactly as the library, valid or not', () => {
    for (const raw of numbers) expect({ raw, e164: normalizeRecipient(raw, 'MG') }).toEqual({ raw, e164: libraryAnswer(raw, 'MG') });
  });

  it('takes Malagasy mobile numbers itself, and leaves national formats, shared codes and bad input to the library', () => {
    for (const raw of ['+261341234567', '+261321234567', '+261331234567', '+261381234567']) expect(provablyValidInternational(raw, 'MG')).toBe(raw);
    for (const raw of ['0341234567', '+1 202 555 0143', '+12025550143', '+2610341234567', '+26134123456', '+0261341234567', 'abc']) {
      expect(provablyValidInternational(raw, 'MG')).toBeUndefined();
    }
    // The library refuses everything when the default country is unknown to it; so does the shortcut.
    expect(provablyValidInternational('+261341234567', 'XX')).toBeUndefined();
    expect(normalizeRecipient('+261341234567', 'XX')).toBe(libraryAnswer('+261341234567', 'XX'));
  });
});
