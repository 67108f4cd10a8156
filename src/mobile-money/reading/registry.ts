import { airtelMoney } from './templates/airtel-money.js';
import { mvola } from './templates/mvola.js';
import { orangeMoney } from './templates/orange-money.js';
import type { Provider, ProviderRegistry } from './types.js';

export const REGISTRIES: readonly ProviderRegistry[] = [mvola, orangeMoney, airtelMoney];

export const REGISTRY_BY_PROVIDER: Readonly<Record<Provider, ProviderRegistry>> = {
  provider_a: mvola,
  provider_b: orangeMoney,
  provider_c: airtelMoney,
};

/** Names the whole template set; any template change bumps its provider's version, hence this. */
export const PARSER_VERSION = `mm-1+${REGISTRIES.map((r) => `${r.provider}.${r.version}`).join('+')}`;

export function mentionedProvider(text: string): ProviderRegistry | null {
  return REGISTRIES.find((registry) => registry.mentions.test(text)) ?? null;
}
