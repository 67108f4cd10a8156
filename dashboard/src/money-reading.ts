import { providerOfSender } from '../../src/mobile-money/reading/senders.ts';
import type { MobileMoneyEvent } from './server-types';

type Provider = MobileMoneyEvent['provider'];

/** The API names providers neutrally (`provider_a`); the dashboard shows the name beside it. */
export const PROVIDERS: Record<Provider, { name: string; sender: string }> = {
  provider_a: { name: 'MVola', sender: 'MVola' },
  provider_b: { name: 'Orange Money', sender: 'OrangeMoney' },
  provider_c: { name: 'Airtel Money', sender: 'AirtelMoney' },
};
export const providerName = (p: Provider) => PROVIDERS[p].name;

type Reading = Pick<MobileMoneyEvent, 'provider' | 'classification' | 'parsingStatus' | 'reference'>;

/**
 * Why a record is `ambiguous`, in words, from what the record and its SMS say (the rules of
 * docs/mobile-money.md, "Classification"): one sentence per reason found.
 */
export function ambiguityReasons(e: Reading, from: string | null): string[] {
  if (e.classification !== 'ambiguous') return [];
  const reasons: string[] = [];
  const expected = PROVIDERS[e.provider];
  if (from !== null && providerOfSender(from) !== e.provider) reasons.push(`It was not sent by ${expected.name}'s own sender (${expected.sender}) but by ${from}: a forward, a copy or a forgery.`);
  if (e.parsingStatus === 'partial') reasons.push('Its wording is not one Hafatra knows fully: some fields could not be read, and the amount may be a guess.');
  if (e.parsingStatus === 'failed') reasons.push('Its wording is not one Hafatra knows: nothing could be read for sure.');
  if (reasons.length === 0)
    reasons.push(
      e.reference
        ? `Its reference ${e.reference} was already recorded by an earlier SMS (an old SMS sent again is a known fraud), or two known wordings read it differently.`
        : 'Two known wordings read it differently.',
    );
  return reasons;
}

/**
 * The provider's own date as a time: `02/01/25 a 09:42` (day first, as Malagasy providers
 * write it) in the browser's time zone, assumed to be the phone's. Null when it reads otherwise.
 */
export function providerTime(raw: string | null): Date | null {
  const m = raw ? /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})\D+?(\d{1,2})[:h](\d{2})(?::(\d{2}))?/.exec(raw.trim()) : null;
  if (!m) return null;
  const [, d, mo, y, h, mi, s] = m.map(Number) as number[];
  const year = y! < 100 ? 2000 + y! : y!;
  const at = new Date(year, mo! - 1, d, h, mi, s || 0);
  return at.getMonth() === mo! - 1 && at.getDate() === d ? at : null;
}
