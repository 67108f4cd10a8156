import { describe, expect, it } from 'vitest';
import { humanField, namedField, pathWords } from '../../dashboard/src/field-words.js';

/** The dashboard says the API's field paths in words (issue 33: never `Url:` or `DefaultCountry:`). */
describe('field names in words', () => {
  it('says a field, an item of a list, and a part of an object', () => {
    expect(humanField('url')).toBe('URL');
    expect(humanField('defaultCountry')).toBe('Default country');
    expect(pathWords('carriers[1].prefixes[0]')).toBe('Carrier 2, prefix 1');
    expect(pathWords('.ranges[0].from')).toBe('Range 1, from');
    expect(pathWords('.timeZone')).toBe('Time zone');
    expect(pathWords('to[3]')).toBe('To 4');
  });

  it('splits a server message into its field and its text, and leaves other messages alone', () => {
    expect(namedField('carriers[0].prefixes[0]: 032 is not international')).toEqual({ root: 'carriers', rest: '[0].prefixes[0]', text: '032 is not international' });
    expect(namedField('number: "12" is not a phone number')).toEqual({ root: 'number', rest: '', text: '"12" is not a phone number' });
    expect(namedField('wrong email or password')).toBeNull();
    expect(namedField('Not possible now: the phone is revoked')).toBeNull();
  });
});
