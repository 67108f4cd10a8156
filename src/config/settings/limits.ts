import { flag, int, type Setting } from '../setting-kinds.js';

/** How much a client, a tenant, a phone or a key may ask of an API process. */
export const limitSettings = {
  bodyLimitBytes: { env: 'HAFATRA_BODY_LIMIT_BYTES', default: '1048576', kind: int(1024), doc: 'Largest accepted request body; larger ones get 413.' },
  trustProxy: {
    env: 'HAFATRA_TRUST_PROXY',
    default: 'false',
    kind: flag,
    doc: "true behind one reverse proxy that appends X-Forwarded-For: the client's address is its last entry (the pairing and password attempt limits count per address: without it, behind a proxy, every client shares the proxy's). false: the socket's address, the header ignored.",
  },
  anonymousRatePerSecond: {
    env: 'HAFATRA_ANONYMOUS_RATE_PER_SECOND',
    default: '50',
    kind: int(1),
    doc: 'Requests without a credential (no API key, no session cookie, no device token) and failed authentications allowed per client address and second, per API process, before anything else is done for them (token bucket refill; the address honours HAFATRA_TRUST_PROXY). Past it: 429 with Retry-After.',
  },
  anonymousBurst: {
    env: 'HAFATRA_ANONYMOUS_BURST',
    default: '500',
    kind: int(1),
    doc: 'How many such requests one address may make at once before HAFATRA_ANONYMOUS_RATE_PER_SECOND applies (token bucket size).',
  },
  orgConcurrency: {
    env: 'HAFATRA_ORG_CONCURRENCY',
    default: '64',
    kind: int(1),
    doc: "Requests of one organization an API process handles at once (a phone's HTTP requests: 8); up to 16 times as many more wait in the organization's own line, and past that it gets 429 with Retry-After: 1. One tenant's flood then waits in its own line, not in front of every other tenant's requests in the Postgres pool.",
  },
  phoneFramesPerSecond: {
    env: 'HAFATRA_PHONE_FRAMES_PER_SECOND',
    default: '1000',
    kind: int(1),
    doc: 'Frames one phone socket may send per second (token bucket refill; docs/device-protocol.md, Frame budget). Past it the frame is answered `rate_limited` with `retryAfterMs`, without touching Postgres; a socket that keeps flooding is closed with 4029.',
  },
  phoneFrameBurst: {
    env: 'HAFATRA_PHONE_FRAME_BURST',
    default: '2000',
    kind: int(1),
    doc: 'Frames one phone socket may send at once before HAFATRA_PHONE_FRAMES_PER_SECOND applies (token bucket size).',
  },
  refusalGrace: {
    env: 'HAFATRA_REFUSAL_GRACE',
    default: '20',
    kind: int(1),
    doc: 'Refusals (429) one client (its organization, or its address before authentication) gets answered at once per 10 s; past them it is a client that ignores Retry-After, and each further refusal is held for HAFATRA_REFUSAL_DELAY_MS before it is answered.',
  },
  refusalDelayMs: {
    env: 'HAFATRA_REFUSAL_DELAY_MS',
    default: '1000',
    kind: int(0),
    doc: 'How long a refusal past the grace is held before it is answered (never past its Retry-After). 0: every refusal is answered at once.',
  },
  refusalsHeldMax: {
    env: 'HAFATRA_REFUSALS_HELD_MAX',
    default: '10000',
    kind: int(1),
    doc: 'Refusals held at once by an API process; past it, the connection of a refusal past the grace is closed unanswered.',
  },
  keyRatePerSecond: { env: 'HAFATRA_KEY_RATE_PER_SECOND', default: '100', kind: int(1), doc: 'Default per-key request rate (token bucket refill per second).' },
  keyRateBurst: { env: 'HAFATRA_KEY_RATE_BURST', default: '200', kind: int(1), doc: 'Default per-key burst (token bucket size).' },
} as const satisfies Record<string, Setting>;
