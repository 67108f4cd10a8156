import { describe, expect, it } from 'vitest';
import { maskPhone, normalizeBody, parseMoneyMinor } from '../../src/mobile-money/reading/index.js';

describe('parseMoneyMinor (MGA: minor = 100 × Ariary)', () => {
  it.each([
    ['10 000 Ar', 1_000_000],
    ['10.000 Ar', 1_000_000],
    ['10,000.00 MGA', 1_000_000],
    ['MGA 10,000.00', 1_000_000],
    ['1.000.000 Ar', 100_000_000],
    ['12000.0Ar', 1_200_000],
    ['5916.47 Ar', 591_647],
    ['Ar 3437519.5', 343_751_950],
    ['Ar20000', 2_000_000],
    ['500AR', 50_000],
    ['1 000,50 Ariary', 100_050],
  ])('reads %s as %i minor units', (token, minor) => {
    expect(parseMoneyMinor(token)).toBe(minor);
  });

  it.each(['1 50 100 Ar', '1234.567 Ar', '10 00 Ar', 'Ar', '1,2,3 Ar'])('refuses to guess %s', (token) => {
    expect(parseMoneyMinor(token)).toBeNull();
  });
});

describe('maskPhone', () => {
  it.each([
    ['0343989873', '+26134****873'],
    ['343989873', '+26134****873'],
    ['+261 34 39 898 73', '+26134****873'],
    ['261343989873', '+26134****873'],
    ['(0383989016)', '+26138****016'],
    ['+262692282610', '+26269****610'],
  ])('masks %s as %s', (raw, masked) => {
    expect(maskPhone(raw)).toBe(masked);
  });

  it.each(['12345', '5969657', '0143989873', '*38054332', 'RAKOTO'])('returns null for %s, which is not a mobile number', (raw) => {
    expect(maskPhone(raw)).toBeNull();
  });
});

describe('normalizeBody', () => {
  it('drops accents, unifies spaces and apostrophes and removes multipart prefixes', () => {
    expect(normalizeBody('1/2 12\u00a0500  Ar reçu\u202fde X à 7:05 amin\u2019ny')).toBe("12 500 Ar recu de X a 7:05 amin'ny");
    expect(normalizeBody('(2/2) Avec MVola')).toBe('Avec MVola');
  });

  it('keeps a leading date, which is not a part prefix', () => {
    expect(normalizeBody('19/05/23 a 02:30')).toBe('19/05/23 a 02:30');
  });
});
