import { randomBytes } from 'node:crypto';

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
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function freshRandom(): number[] {
  const bytes = randomBytes(RANDOM_CHARS);
  // The top character stays below 16 so incrementing within a millisecond cannot overflow.
  return Array.from(bytes, (b, i) => (i === 0 ? b & 15 : b & 31));
}

function increment(digits: number[]): number[] {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i]!++;
      return next;
    }
    next[i] = 0;
  }
  return freshRandom();
}

export function newId(kind: IdKind, now = Date.now()): string {
  if (now <= lastMs) {
    lastRandom = increment(lastRandom);
  } else {
    lastMs = now;
    lastRandom = freshRandom();
  }
  return `${idPrefixes[kind]}_${encodeTime(lastMs)}${lastRandom.map((d) => ALPHABET[d]).join('')}`;
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
