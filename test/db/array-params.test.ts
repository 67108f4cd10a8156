import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { epochMsArray, numberArray, textArray } from '../../src/db/array-params.js';
import { testDatabaseUrl } from '../support/database.js';

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: testDatabaseUrl(), options: '-c TimeZone=UTC' });
  await db.connect();
});
afterAll(async () => {
  await db.end();
});

const AWKWARD = ['', 'NULL', 'null', ' a b ', 'a,b', '{x}', 'say "hi"', 'back\\slash', '\\"', '"', '\\', 'Manao ahoana 🇲🇬', "it's", 'tab\there', 'line\nbreak'];

describe('array parameters written as Postgres literals', () => {
  it('reads back every text element as it was sent, quotes, backslashes, braces and nulls included', async () => {
    const values = [...AWKWARD, null, 'msg_01JDXYZ', undefined];
    const { rows } = await db.query<{ v: (string | null)[] }>('SELECT $1::text[] AS v', [textArray(values)]);
    expect(rows[0]!.v).toEqual(values.map((v) => v ?? null));
  });

  it('is the array pg itself would send, element for element', async () => {
    const values = [...AWKWARD, null];
    const { rows } = await db.query<{ same: boolean }>('SELECT $1::text[] IS NOT DISTINCT FROM $2::text[] AS same', [textArray(values), values]);
    expect(rows[0]!.same).toBe(true);
  });

  it('writes empty arrays, and numbers with their nulls', async () => {
    const { rows } = await db.query<{ t: string[]; i: (number | null)[]; f: number[] }>('SELECT $1::text[] AS t, $2::int[] AS i, $3::float8[] AS f', [
      textArray([]),
      numberArray([1, null, -7, 2147483647]),
      numberArray([0.5, 1e21, -3]),
    ]);
    expect(rows[0]).toEqual({ t: [], i: [1, null, -7, 2147483647], f: [0.5, 1e21, -3] });
  });

  it('carries instants as epoch milliseconds that to_timestamp reads back to the exact millisecond', async () => {
    const dates: (Date | null)[] = [new Date('1970-01-01T00:00:00.001Z'), new Date('2026-11-29T05:33:22.123Z'), new Date('2099-12-31T23:59:59.999Z'), null];
    for (let i = 0; i < 2_000; i++) dates.push(new Date(Date.UTC(2020, 0, 1) + Math.floor(Math.random() * 400 * 86_400_000)));
    const { rows } = await db.query<{ same: boolean; v: (Date | null)[] }>(
      `SELECT array_agg(to_timestamp(ms / 1000) ORDER BY n) IS NOT DISTINCT FROM $2::timestamptz[] AS same, array_agg(to_timestamp(ms / 1000) ORDER BY n) AS v
       FROM unnest($1::float8[]) WITH ORDINALITY AS u(ms, n)`,
      [epochMsArray(dates), dates],
    );
    expect(rows[0]!.same).toBe(true);
    expect(rows[0]!.v.map((d) => d?.toISOString() ?? null)).toEqual(dates.map((d) => d?.toISOString() ?? null));
  });

  it('leaves a bad element for Postgres to refuse, as pg would', async () => {
    await expect(db.query('SELECT $1::int[]', [numberArray([1.5])])).rejects.toThrow(/invalid input syntax for type integer/);
  });
});
