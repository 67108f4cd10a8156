import { describe, expect, it } from 'vitest';
import { measureSms } from '../../src/messages/encoding.js';

const a = (n: number) => 'a'.repeat(n);
const zhe = (n: number) => 'ж'.repeat(n); // Cyrillic: not GSM-7, one UTF-16 unit

describe('measureSms: GSM-7 (160 septets, 153 per part) else UCS-2 (70 units, 67 per part)', () => {
  it.each([
    ['one character', 'a', 'gsm7', 1],
    ['160 GSM characters', a(160), 'gsm7', 1],
    ['161 GSM characters', a(161), 'gsm7', 2],
    ['306 GSM characters', a(306), 'gsm7', 2],
    ['307 GSM characters', a(307), 'gsm7', 3],
    ['1600 GSM characters', a(1600), 'gsm7', 11],
    ['the basic table: @£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉÄÖÑÜ§¿äöñüà¤', '@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉÄÖÑÜ§¿äöñüà¤', 'gsm7', 1],
    ['newline and carriage return', 'a\r\nb', 'gsm7', 1],
    ['€ costs two septets: 158 + € fits', `${a(158)}€`, 'gsm7', 1],
    ['€ costs two septets: 159 + € does not', `${a(159)}€`, 'gsm7', 2],
    ['80 extension characters are 160 septets', '[]{}|~^\\'.repeat(10), 'gsm7', 1],
    ['an escape pair is never split across parts', `${a(152)}€${a(152)}`, 'gsm7', 3],
    ['70 UCS-2 characters', zhe(70), 'ucs2', 1],
    ['71 UCS-2 characters', zhe(71), 'ucs2', 2],
    ['134 UCS-2 characters', zhe(134), 'ucs2', 2],
    ['135 UCS-2 characters', zhe(135), 'ucs2', 3],
    ['one non-GSM character makes the whole body UCS-2', `${a(100)}ç`, 'ucs2', 2],
    ['35 emoji are 70 UTF-16 units', '😀'.repeat(35), 'ucs2', 1],
    ['36 emoji are 72 UTF-16 units', '😀'.repeat(36), 'ucs2', 2],
    ['a surrogate pair is never split across parts', `${zhe(66)}😀${zhe(66)}`, 'ucs2', 3],
  ])('%s', (_name, body, encoding, segments) => {
    expect(measureSms(body)).toEqual({ encoding, segments });
  });
});
