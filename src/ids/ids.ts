import { randomFillSync } from 'node:crypto';

/**
 * Prefixed, time-sortable ids (`msg_01J…`): 10 Crockford base32 characters of milliseconds, then
 * 14 of randomness. Within one millisecond the random part is incremented, so ids made by one
 * process sort in creation order and a newest-first cursor over ids is stable.
 */
export const idPrefixes = {
  message: 'msg',
  batch: 'bat',
  device: 'dev',
  incoming: 'inc',
  mobileMoney: 'mm',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  event: 'evt',
  apiKey: 'key',
  organization: 'org',
  request: 'req',
  apiProcess: 'apr',
  member: 'mem',
  memberSession: 'ses',
  oneTimeLink: 'lnk',
  auditEntry: 'aud',
  optOut: 'opt',
} as const;

export type IdKind = keyof typeof idPrefixes;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_CHARS = 14;

let lastMs = -1;
/** The random part of the last id, one base-32 digit a character; incremented within a millisecond. */
let lastRandom: number[] = [];
// The last id's time and all but its last random character, as text: within a millisecond only
// the last character changes but once in 32, so an id is one concatenation (a send of 500 made
// its ids in 5% of the API's time under the bench, each rebuilt from its digits: bench/README.md).
let timeText = '';
let headText = '';

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

// Random bytes for 256 milliseconds' ids drawn at once: a request in a new millisecond (most of
// them, below a thousand a second) called into the system's generator for 14 bytes, 1% of the
// API's time answering GET /v1/messages/{id}.
const pool = Buffer.alloc(RANDOM_CHARS * 256);
let pooled = 0;

function freshRandom(): number[] {
  if (pooled === 0) {
    randomFillSync(pool);
    pooled = pool.length;
  }
  const at = pool.length - pooled;
  pooled -= RANDOM_CHARS;
  const digits = new Array<number>(RANDOM_CHARS);
  // The top character stays below 16 so incrementing within a millisecond cannot overflow.
  for (let i = 0; i < RANDOM_CHARS; i++) digits[i] = pool[at + i]! & (i === 0 ? 15 : 31);
  return digits;
}

const headOf = (digits: number[]) => digits.slice(0, RANDOM_CHARS - 1).reduce((text, d) => text + ALPHABET[d], '');

/** The next random part within the same millisecond: one more, from the last digit up. */
function increment(): void {
  let i = RANDOM_CHARS - 1;
  while (i >= 0 && lastRandom[i] === 31) lastRandom[i--] = 0;
  if (i < 0) lastRandom = freshRandom();
  else lastRandom[i]!++;
  if (i < RANDOM_CHARS - 1) headText = headOf(lastRandom);
}

export function newId(kind: IdKind, now = Date.now()): string {
  if (now <= lastMs) {
    increment();
  } else {
    lastMs = now;
    timeText = encodeTime(now);
    lastRandom = freshRandom();
    headText = headOf(lastRandom);
  }
  return `${idPrefixes[kind]}_${timeText}${headText}${ALPHABET[lastRandom[RANDOM_CHARS - 1]!]}`;
}

/** The smallest id of this kind made at or after `ms`: time ranges become id ranges on the primary key. */
export function idFloor(kind: IdKind, ms: number): string {
  return `${idPrefixes[kind]}_${encodeTime(ms)}`;
}

export function newIds(kind: IdKind, count: number): string[] {
  const now = Date.now();
  return Array.from({ length: count }, () => newId(kind, now));
}

/** The path-id rule of the spec: anything else cannot name a resource. */
export const PATH_ID = /^[A-Za-z0-9_-]{1,64}$/;
