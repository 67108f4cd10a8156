import fc from 'fast-check';
import { expect } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import type { TestApp } from '../support/harness.js';
import { rawHttp, rawRequest, type RawResponse } from '../support/raw-http.js';

/**
 * Generators and properties of the HTTP fuzz suite. Every run uses one fixed seed, so a failure
 * reproduces exactly (fast-check prints the counterexample and its path).
 */
export const SEED = 17;

type Schema = TSchema & Record<string, any>;

/** Strings one character per byte: `\xNN` is the byte NN on the wire (see rawHttp). */
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
/** Percent-encodes every byte that is not unreserved: the bytes arrive exactly as generated. */
export const percentEncode = (bytes: Uint8Array) =>
  [...bytes].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`)).join('');

const BAD_ESCAPES = ['%ff', '%FF%FE', '%C0%AE', '%', '%%', '%E0%A4%A', '%zz', 'a%', '%ED%A0%80', '%F4%90%80%80', '%uD800', '%00', '%0A%0D'];

/** A path id: valid-looking, random bytes (encoded or raw), bad escapes, very long, dot segments. */
export const pathId: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  fc.constantFrom(...BAD_ESCAPES),
  fc.uint8Array({ minLength: 1, maxLength: 40 }).map(percentEncode),
  // Raw bytes of 0x80 and above in the request line, as a client that does not encode sends them.
  fc.uint8Array({ minLength: 1, maxLength: 20 }).map((b) => latin1(b.map((x) => 0x80 | x))),
  fc.integer({ min: 65, max: 8000 }).map((n) => 'a'.repeat(n)),
  fc.constantFrom('.', '..', '%2e%2e', '%2F', 'a%2Fb', '~', 'a.b'),
);

/** A query value: encoded random bytes, bad escapes, numbers a lax parser would read, huge. */
const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.uint8Array({ maxLength: 30 }).map(percentEncode),
  fc.constantFrom(...BAD_ESCAPES, '0', '1', '100', '101', '-1', '1.5', '1e2', '0x10', ' 5', '5 ', 'NaN', 'Infinity', '99999999999999999999', 'true', 'queued', 'matched'),
  fc.integer({ min: 200, max: 5000 }).map((n) => 'b'.repeat(n)),
);

/** A query string built from the route's own parameters and some others, repeated or not. */
export function queryString(schema: Schema | undefined): fc.Arbitrary<string> {
  const names = Object.keys(schema?.properties ?? {});
  const name = fc.oneof(...(names.length ? [fc.constantFrom(...names)] : []), fc.constantFrom('x', '', '%ff', 'limit[]', 'a%'));
  return fc
    .array(fc.tuple(name, queryValue, fc.boolean()), { maxLength: 4 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v, bare]) => (bare && v === '' ? k : `${k}=${v}`)).join('&')}`));
}

const ISO = '2026-01-01T08:00:00Z';
const BY_NAME: Record<string, unknown> = { to: '+261341234567', url: 'https://93.184.216.34/hook', code: 'ABCD-1234', clientId: 'c1', from: 'MVola', ref: 'r1' };

/** A valid-looking value of a typebox schema (the first variant of a union). */
export function sampleOf(schema: Schema, name = ''): unknown {
  if ('const' in schema) return schema.const;
  if (schema.anyOf) return sampleOf(schema.anyOf[0], name);
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sampleOf(s as Schema, k)]));
    case 'array':
      return [sampleOf(schema.items, name)];
    case 'integer':
    case 'number':
      return name === 'index' ? 1 : (schema.minimum ?? 0);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string': {
      if (name in BY_NAME) return BY_NAME[name];
      const pattern = String(schema.pattern ?? '');
      if (pattern.includes('\\d{4}')) return ISO;
      if (pattern.includes('a-z0-9_')) return 'code';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    }
    default:
      return null;
  }
}

/** Paths to every value inside a sample, each with the schema it came from. */
function leaves(schema: Schema, value: unknown, path: (string | number)[] = []): { path: (string | number)[]; schema: Schema }[] {
  const own = { path, schema };
  const s = schema.anyOf ? schema.anyOf[0] : schema;
  if (s.type === 'object' && value && typeof value === 'object') {
    return [own, ...Object.entries(s.properties ?? {}).flatMap(([k, sub]) => leaves(sub as Schema, (value as any)[k], [...path, k]))];
  }
  if (s.type === 'array' && Array.isArray(value)) return [own, ...leaves(s.items, value[0], [...path, 0])];
  return [own];
}

function setAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  const [head, ...rest] = path;
  if (replacement === REMOVE && rest.length === 0) delete copy[head!];
  else copy[head!] = setAt(copy[head!], rest, replacement);
  return copy;
}

const REMOVE = Symbol('remove');
/** Any code point but U+0000, lone surrogates included (fast-check's 'binary' unit takes seconds to start). */
const codePoint = fc.integer({ min: 1, max: 0x10ffff }).map((n) => String.fromCodePoint(n));
const deep = (n: number) => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = [v];
  return v;
};

/** Values a client gets wrong: wrong types, out of range, huge, odd Unicode, missing. */
function badValues(schema: Schema): fc.Arbitrary<unknown> {
  const s = schema.anyOf ? schema.anyOf[0] : schema;
  const limits: unknown[] = [];
  if (typeof s.maximum === 'number') limits.push(s.maximum + 1);
  if (typeof s.minimum === 'number') limits.push(s.minimum - 1, -2147483648);
  if (typeof s.maxLength === 'number') limits.push('y'.repeat(s.maxLength + 1));
  if (typeof s.maxItems === 'number') limits.push(Array.from({ length: s.maxItems + 1 }, () => sampleOf(s.items)));
  return fc.oneof(
    fc.constantFrom<unknown>(REMOVE, null, true, 0, -1, 1.5, -0.5, 1e308, -1e308, '', '1', 'é', [], {}, [null], { a: 1 }, deep(3000), ...limits),
    fc.constantFrom('\ud800', '\udfff', 'a\ud800b', '😀'.repeat(2000), '\u202e\u200b', 'x'.repeat(300_000), 'Ω'.repeat(5000)),
    fc.string({ unit: codePoint, maxLength: 50 }),
  );
}

/** Known to reach Postgres and answer 500 until h5-input-limits is merged (issue 17, finding 5). */
const KNOWN_500_VALUES: unknown[] = ['\u0000', 'a\u0000b', 2147483648, 4294967296, 9007199254740991, 1e20, 2 ** 63];

/** A body of the route's schema with one value replaced (or removed). */
export function mutatedBody(schema: Schema, values: (leaf: Schema) => fc.Arbitrary<unknown> = badValues): fc.Arbitrary<unknown> {
  const sample = sampleOf(schema);
  const all = leaves(schema, sample);
  return fc.constantFrom(...all).chain((leaf) => values(leaf.schema).map((v) => setAt(sample, leaf.path, v)));
}

export const known500Body = (schema: Schema) => mutatedBody(schema, () => fc.constantFrom(...KNOWN_500_VALUES)).map((v) => shown(Buffer.from(JSON.stringify(v))));

/** Whether a value holds what KNOWN_500_VALUES holds: kept out of the main properties. */
export function holdsKnown500(value: unknown): boolean {
  // A walk with its own stack: bodies nest thousands deep.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string' && v.includes('\u0000')) return true;
    if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) > 2147483647 && Math.abs(v) < 1e300) return true;
    if (v && typeof v === 'object') for (const [k, inner] of Object.entries(v)) pending.push(k, inner);
  }
  return false;
}

/** A counterexample shows a body as its text (the first 2,000 characters), not as a list of bytes. */
const shown = (body: Buffer): Buffer => Object.assign(body, { [fc.toStringMethod]: () => `body ${JSON.stringify(body.toString('utf8').slice(0, 2000))} (${body.length} bytes)` });

/** A request body as bytes: JSON of some value, raw garbage, or nothing. */
export function bodyBytes(schema: Schema | undefined): fc.Arbitrary<Buffer> {
  return anyBody(schema).map(shown);
}

function anyBody(schema: Schema | undefined): fc.Arbitrary<Buffer> {
  const json = (v: fc.Arbitrary<unknown>) => v.filter((x) => !holdsKnown500(x)).map((x) => Buffer.from(JSON.stringify(x) ?? 'null'));
  return fc.oneof(
    { arbitrary: json(schema ? mutatedBody(schema) : fc.jsonValue()), weight: 5 },
    { arbitrary: json(schema ? fc.constant(sampleOf(schema)) : fc.constant({})), weight: 1 },
    { arbitrary: json(fc.jsonValue({ maxDepth: 3 })), weight: 2 },
    { arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), weight: 1 },
    { arbitrary: fc.constantFrom('', '{', '{"a":', '[1,]', '\ufeff{}', '{"__proto__":{"x":1}}', '{"a":1,"a":2}', 'nul').map((s) => Buffer.from(s)), weight: 1 },
  );
}

export interface Credentials {
  apiKey: string;
  deviceToken: string;
}

/** Headers the router reads, right and wrong: Authorization, Content-Type, Idempotency-Key. */
export function headerSet(device: boolean, creds: Credentials): fc.Arbitrary<string[]> {
  const token = device ? creds.deviceToken : creds.apiKey;
  const authorization = fc.oneof(
    { arbitrary: fc.constant([`Authorization: Bearer ${token}`]), weight: 8 },
    {
      arbitrary: fc.constantFrom<string[]>(
        [],
        ['Authorization: Bearer'],
        ['Authorization: Basic eDp5'],
        [`Authorization: Bearer ${token}x`],
        [`Authorization: Bearer ${token.slice(0, 8)}\xc3\xa9${token.slice(8)}`],
        [`Authorization: Bearer ${token}`, 'Authorization: Bearer hfk_other'],
      ),
      weight: 2,
    },
  );
  const contentType = fc.oneof(
    { arbitrary: fc.constant(['Content-Type: application/json']), weight: 6 },
    {
      arbitrary: fc.constantFrom<string[]>(
        [],
        ['Content-Type: text/plain'],
        ['Content-Type: application/json; charset=latin1'],
        ['Content-Type: application/problem+json'],
        ['Content-Type: application/js\xc3\xa9on'],
        ['Content-Type: ;;;'],
      ),
      weight: 2,
    },
  );
  const idempotency = fc.oneof(
    { arbitrary: fc.constant<string[]>([]), weight: 3 },
    { arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,128}$/).map((k) => [`Idempotency-Key: ${k}`]), weight: 1 },
    { arbitrary: fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => [`Idempotency-Key: ${latin1(b.map((x) => (x < 0x20 || x === 0x7f ? 0x41 : x)))}`]), weight: 1 },
  );
  return fc.tuple(authorization, contentType, idempotency).map((parts) => parts.flat());
}

/** Rows of the organization that a request could write. */
export async function rowCounts(app: TestApp, orgId: string): Promise<Record<string, number>> {
  const { rows } = await app.ctx.db.query(
    `SELECT (SELECT count(*) FROM messages WHERE org_id = $1)::int AS messages,
            (SELECT count(*) FROM batches WHERE org_id = $1)::int AS batches,
            (SELECT count(*) FROM devices WHERE org_id = $1)::int AS devices,
            (SELECT count(*) FROM webhook_endpoints WHERE org_id = $1)::int AS webhook_endpoints,
            (SELECT count(*) FROM incoming_messages WHERE org_id = $1)::int AS incoming_messages`,
    [orgId],
  );
  return rows[0];
}

/** A request the raw way: request line, headers, body with its Content-Length. */
export function send(app: TestApp, method: string, target: string, headers: string[], body?: Buffer): Promise<RawResponse> {
  const withLength = body === undefined ? headers : [...headers, `Content-Length: ${body.length}`];
  return rawRequest(app.url, rawHttp(`${method.toUpperCase()} ${target} HTTP/1.1`, ['Host: fuzz', ...withLength], body ?? ''));
}

/** The API still answers: a request to no route gets its 404 in the error shape. */
export async function expectAlive(app: TestApp): Promise<void> {
  const res = await send(app, 'GET', '/v1/alive', []);
  expect(res.status, 'the API stopped answering').toBe(404);
}

/**
 * Every answer of the API is JSON; a refusal is in the error shape with its request id, and never
 * a 5xx. A path the API does not own is the dashboard's: its page (HTML), with the security headers.
 */
export function expectWellFormed(res: RawResponse, what: string): void {
  expect(res.status, `${what}: no answer (${res.ended})`).toBeGreaterThan(0);
  expect(res.status, `${what}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.status === 204) return;
  if (/^text\/(html|plain)/.test(res.headers['content-type'] ?? '')) {
    expect(res.headers['content-security-policy'], what).toContain("frame-ancestors 'none'");
    return;
  }
  const body = JSON.parse(res.body);
  if (res.status < 400) return;
  expect(Object.keys(body), what).toEqual(['error']);
  expect(typeof body.error.code, what).toBe('string');
  expect(typeof body.error.message, what).toBe('string');
  expect(body.error.requestId, what).toBe(res.headers['x-request-id']);
  expect(body.error.requestId.length, what).toBeGreaterThan(0);
}
