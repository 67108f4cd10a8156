import { Metadata } from 'libphonenumber-js/max';

/**
 * A shortcut for recipients already written in E.164 ("+261341234567"), the form bulk senders
 * post. libphonenumber-js rebuilds its metadata objects and regular expressions on every call,
 * which made it a large share of the API's CPU on a bulk send (bench/README.md).
 *
 * This answers only when it can prove the library would call the number valid, by the library's
 * own steps and the library's own metadata: the calling code is the first 1 to 3 digits that are
 * a known code, the code belongs to one country only, no national prefix could be stripped from
 * what follows, and the national number matches the country's pattern and one of its number
 * types (with that type's lengths). Anything else (national format, shared codes like +1, a
 * possible national prefix, an invalid number) returns undefined, and the caller asks the
 * library. test/messages/international-number.test.ts compares both on numbers of every country.
 */

/** The parts of the library's Metadata class used here (its typings declare only a few). */
interface NumberingPlan {
  nationalPrefixForParsing(): string | undefined;
  nationalNumberPattern(): string;
  type(name: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
}
interface LibraryMetadata {
  hasCountry(country: string): boolean;
  hasCallingCode(callingCode: string): boolean | undefined;
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
  selectNumberingPlan(callingCode: string): void;
  numberingPlan: NumberingPlan;
}

/** The types getNumberType tries; a number of any of them is valid. */
const NUMBER_TYPES = ['FIXED_LINE', 'MOBILE', 'PREMIUM_RATE', 'TOLL_FREE', 'SHARED_COST', 'VOIP', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL'];
const MAX_CALLING_CODE_DIGITS = 3;
const MIN_NATIONAL_DIGITS = 2;
const MAX_NATIONAL_DIGITS = 17;
const E164_SHAPE = /^\+[1-9]\d{1,19}$/;

interface CallingCodePlan {
  /** Matches when a national prefix (or carrier code) could be taken off the front. */
  nationalPrefix: RegExp | null;
  general: RegExp;
  types: Array<{ pattern: RegExp; lengths: number[] | undefined }>;
}

const metadata = new Metadata() as unknown as LibraryMetadata;
/** Per calling code: its compiled plan, or null when the shortcut does not apply (a code shared or non-geographic). */
const plans = new Map<string, CallingCodePlan | null | 'not a code'>();

function planFor(callingCode: string): CallingCodePlan | null | 'not a code' {
  let plan = plans.get(callingCode);
  if (plan === undefined) {
    if (!metadata.hasCallingCode(callingCode)) plan = 'not a code';
    else plan = metadata.getCountryCodesForCallingCode(callingCode)?.length === 1 ? compilePlan(callingCode) : null;
    plans.set(callingCode, plan);
  }
  return plan;
}

function compilePlan(callingCode: string): CallingCodePlan {
  metadata.selectNumberingPlan(callingCode);
  const plan = metadata.numberingPlan;
  const prefix = plan.nationalPrefixForParsing();
  const types = NUMBER_TYPES.flatMap((name) => {
    const t = plan.type(name);
    const pattern = t?.pattern();
    return t && pattern ? [{ pattern: entirely(pattern), lengths: t.possibleLengths() }] : [];
  });
  return { nationalPrefix: prefix ? new RegExp(`^(?:${prefix})`) : null, general: entirely(plan.nationalNumberPattern()), types };
}

const entirely = (pattern: string) => new RegExp(`^(?:${pattern})$`);

/**
 * The number in E.164 when `trimmed` is an international number the library would accept as
 * valid; undefined when this cannot tell (the library decides then).
 */
export function provablyValidInternational(trimmed: string, defaultCountry: string): string | undefined {
  // The library refuses every number when the default country is unknown to it.
  if (!E164_SHAPE.test(trimmed) || !metadata.hasCountry(defaultCountry)) return undefined;
  for (let digits = 1; digits <= MAX_CALLING_CODE_DIGITS; digits++) {
    const plan = planFor(trimmed.slice(1, 1 + digits));
    if (plan === 'not a code') continue;
    if (plan === null) return undefined;
    const national = trimmed.slice(1 + digits);
    if (national.length < MIN_NATIONAL_DIGITS || national.length > MAX_NATIONAL_DIGITS) return undefined;
    if (plan.nationalPrefix?.test(national) || !plan.general.test(national)) return undefined;
    const typed = plan.types.some((t) => (!t.lengths || t.lengths.includes(national.length)) && t.pattern.test(national));
    return typed ? trimmed : undefined;
  }
  return undefined;
}
