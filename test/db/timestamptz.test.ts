import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { ISO_TIMESTAMPS, isoTimestamptz, parseTimestamptz } from '../../src/db/timestamptz.js';
import { testDatabaseUrl } from '../support/database.js';

describe('parseTimestamptz', () => {
  it('reads the UTC text Postgres writes, to the millisecond', () => {
    expect(parseTimestamptz('2026-11-22 08:05:20+00').toISOString()).toBe('2026-11-22T08:05:20.000Z');
    expect(parseTimestamptz('2026-11-22 08:05:20.6+00').toISOString()).toBe('2026-11-22T08:05:20.600Z');
    expect(parseTimestamptz('2026-11-22 08:05:20.68+00').toISOString()).toBe('2026-11-22T08:05:20.680Z');
    expect(parseTimestamptz('2026-11-22 08:05:20.682+00').toISOString()).toBe('2026-11-22T08:05:20.682Z');
    expect(parseTimestamptz('2026-11-22 08:05:20.682999+00').toISOString()).toBe('2026-11-22T08:05:20.682Z');
    expect(parseTimestamptz('2024-02-29 23:59:59.999+00').toISOString()).toBe('2024-02-29T23:59:59.999Z');
  });

  it('leaves other offsets, eras and infinities to the general parser', () => {
    expect(parseTimestamptz('2026-11-22 11:05:20.5+03').toISOString()).toBe('2026-11-22T08:05:20.500Z');
    expect(parseTimestamptz('2026-11-22 02:35:20+05:30').toISOString()).toBe('2026-11-21T21:05:20.000Z');
    expect(parseTimestamptz('0099-01-01 00:00:00+00').getUTCFullYear()).toBe(99);
    expect(parseTimestamptz('infinity')).toEqual(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ)('infinity'));
  });
});

describe('isoTimestamptz', () => {
  it('writes what the Date of parseTimestamptz would print, for every shape Postgres writes', () => {
    const texts = [
      '2026-11-22 08:05:20+00',
      '2026-11-22 08:05:20.6+00',
      '2026-11-22 08:05:20.68+00',
      '2026-11-22 08:05:20.682+00',
      '2026-11-22 08:05:20.6821+00',
      '2026-11-22 08:05:20.68212+00',
      '2026-11-22 08:05:20.682999+00',
      '2024-02-29 23:59:59.999+00',
      '2026-11-22 11:05:20.5+03',
      '2026-11-22 02:35:20+05:30',
    ];
    for (const text of texts) expect(isoTimestamptz(text)).toBe(parseTimestamptz(text).toISOString());
  });

  it('reads the instants of a real page of messages as the API writes them', async () => {
    const db = new pg.Client({ connectionString: testDatabaseUrl(), options: '-c TimeZone=UTC' });
    await db.connect();
    try {
      const { rows } = await db.query({
        text: `SELECT t, t::text AS raw FROM (VALUES (now()), (timestamptz '2026-01-01 00:00:00.1+00'), (timestamptz '2026-06-30 23:59:59.999999+00')) v(t)`,
        types: ISO_TIMESTAMPS,
      });
      for (const r of rows as { t: string; raw: string }[]) expect(r.t).toBe(parseTimestamptz(r.raw).toISOString());
      expect((rows[1] as { t: string }).t).toBe('2026-01-01T00:00:00.100Z');
    } finally {
      await db.end();
    }
  });
});
