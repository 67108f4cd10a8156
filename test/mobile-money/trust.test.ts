import { describe, expect, it } from 'vitest';
import { readMobileMoney } from '../../src/mobile-money/reading/index.js';

const MVOLA_RECEIVED = '51 300 Ar recu de HARIJAONA MAMINIAINA 0386081661 le 04/07/26 a 13:41. Raison: 1. Solde: 172 914 Ar. Ref 3210176366';

describe('trust comes from the sender id, fields from the body', () => {
  it('reads the provider sender as matched, case and spacing of the id aside', () => {
    for (const from of ['MVola', 'mvola', 'M-Vola']) {
      expect(readMobileMoney({ from, body: MVOLA_RECEIVED })?.classification).toBe('matched');
    }
  });

  it('never reads a forwarded or spoofed copy as matched, and trusts it less', () => {
    const genuine = readMobileMoney({ from: 'MVola', body: MVOLA_RECEIVED })!;
    for (const from of ['+261341112233', '0341112233', 'Mvola Service', 'AirtelMoney', 'OrangeMoney', '']) {
      const copy = readMobileMoney({ from, body: MVOLA_RECEIVED })!;
      expect(copy.classification).toBe('ambiguous');
      expect(copy.amountMinor).toBe(genuine.amountMinor);
      expect(copy.reference).toBe('3210176366');
      expect(copy.parserConfidence!).toBeLessThan(genuine.parserConfidence!);
    }
  });

  it('returns no record for ordinary SMS, empty bodies or money chat from a number', () => {
    expect(readMobileMoney({ from: '+261340000000', body: '' })).toBeNull();
    expect(readMobileMoney({ from: '+261340000000', body: 'Manao ahoana! Ho avy rahampitso.' })).toBeNull();
    expect(readMobileMoney({ from: '+261340000000', body: 'Alefaso 5 000 Ar amin ny MVola aho azafady' })).toBeNull();
  });

  it('records anything the provider itself sends, as unknown when it is no transaction', () => {
    const notice = readMobileMoney({ from: 'AirtelMoney', body: 'Misaotra anao nisafidy Airtel Money.' })!;
    expect(notice).toMatchObject({ provider: 'provider_c', classification: 'unknown', parsingStatus: 'failed', amountMinor: null });
  });
});

describe('parsing status and confidence', () => {
  it('marks a truncated notification partial and ambiguous, with lower confidence than a complete one', () => {
    const complete = readMobileMoney({ from: 'MVola', body: MVOLA_RECEIVED })!;
    const truncated = readMobileMoney({ from: 'MVola', body: MVOLA_RECEIVED.replace(/\. Ref 3210176366$/, '') })!;
    expect(truncated).toMatchObject({ classification: 'ambiguous', parsingStatus: 'partial', reference: null, amountMinor: 5_130_000 });
    expect(truncated.parserConfidence!).toBeLessThan(complete.parserConfidence!);
  });

  it('does not let a number-heavy promotion look like a transaction', () => {
    const promo = readMobileMoney({ from: 'MVola', body: "Avec MVola Epargne, epargnez jusqu'a 100 000 000 Ar. Faites un depot des 100 Ar. Tapez le #111*1*3*1#" })!;
    expect(promo).toMatchObject({ classification: 'unknown', kind: 'promotion', amountMinor: null, balanceMinor: null, direction: null });
  });

  it('reads a drifted provider wording as ambiguous with a generic, low-confidence reading', () => {
    const drifted = readMobileMoney({ from: 'OrangeMoney', body: 'Operation reussie: vous avez recu 7500 Ar du 0321234567. Nouveau solde: 9000 Ar. Trans Id: PP260101.1000.A11111' })!;
    expect(drifted).toMatchObject({ classification: 'ambiguous', kind: 'unrecognized', direction: 'incoming', amountMinor: 750_000, balanceMinor: 900_000, reference: 'PP260101.1000.A11111' });
    expect(drifted.parserConfidence!).toBeLessThan(0.5);
  });

  it('never writes a full phone number anywhere in the reading', () => {
    const reading = readMobileMoney({ from: 'MVola', body: MVOLA_RECEIVED })!;
    expect(JSON.stringify(reading)).not.toContain('0386081661');
    expect(JSON.stringify(reading)).not.toContain('386081661');
    expect(reading.counterpartyPhoneMasked).toBe('+26138****661');
  });
});
