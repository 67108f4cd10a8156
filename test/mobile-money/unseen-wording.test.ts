import { describe, expect, it } from 'vitest';
import { readMobileMoney } from '../../src/mobile-money/reading/index.js';

/**
 * A money SMS from the provider's own sender in a wording no template knows: kept for review as
 * `ambiguous`, with its amount when one can be found, so that nobody misses a payment (issue 33).
 */
describe('an unseen wording from the provider', () => {
  it('is ambiguous with its amount, not unknown', () => {
    const r = readMobileMoney({ from: 'MVola', body: 'Votre compte a ete credite de 25 000 Ar par RAKOTO (034 12 345 67) le 02/01/25 a 09:42.' });
    expect(r).toMatchObject({ provider: 'provider_a', classification: 'ambiguous', kind: 'unrecognized', amountMinor: 2_500_000, currency: 'MGA' });
    expect(r!.parserConfidence).toBeLessThan(0.5);
  });

  it('takes the sum moved, not the balance or the fee', () => {
    const r = readMobileMoney({ from: 'MVola', body: 'Solde: 140 000 Ar. Frais: 200 Ar. Compte credite de 5 000 Ar.' });
    expect(r).toMatchObject({ classification: 'ambiguous', amountMinor: 500_000 });
  });

  it('stays unknown without an amount, and is nothing from anyone else', () => {
    expect(readMobileMoney({ from: 'MVola', body: 'Bienvenue sur MVola, votre portefeuille mobile.' })).toMatchObject({ classification: 'unknown' });
    expect(readMobileMoney({ from: '+261341234567', body: 'Votre compte a ete credite de 25 000 Ar.' })).toBeNull();
  });
});
