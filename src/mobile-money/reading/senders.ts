import type { Provider } from './types.js';

/**
 * The providers' own alphanumeric sender ids, as seen in SIM-gateway payloads
 * (see docs/mobile-money.md). Case, spaces and hyphens are ignored ("Orange Money",
 * "M-Vola"); a phone number or a contact name never is a provider sender.
 */
const SENDER_IDS: Readonly<Record<string, Provider>> = {
  mvola: 'provider_a',
  orangemoney: 'provider_b',
  airtelmoney: 'provider_c',
};

export function providerOfSender(from: string): Provider | null {
  const key = from.toLowerCase().replace(/[\s_-]+/g, '');
  return SENDER_IDS[key] ?? null;
}
