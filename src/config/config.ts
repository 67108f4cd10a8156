import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Every setting Hafatra reads from the environment, with its default. This table is the single
 * source for README's configuration section (`hafatra config --json` prints it).
 */
export const settings = {
  PORT: { default: '3000', doc: 'HTTP port of the API (HTTP + phone sockets).' },
  HOST: { default: '0.0.0.0', doc: 'Interface the API listens on.' },
  DATABASE_URL: { default: '', doc: 'Postgres URL. Empty: `hafatra start` runs an embedded Postgres under HAFATRA_DATA_DIR.' },
  REDIS_URL: {
    default: '',
    doc: 'Redis URL (`redis://`, `rediss://`), or a Redis Cluster: `redis+cluster://host1:7000,host2:7001` (docs/redis-cluster.md). Empty: `hafatra start` runs redis-server from PATH under HAFATRA_DATA_DIR.',
  },
  HAFATRA_DATA_DIR: { default: '.hafatra', doc: 'Where embedded Postgres and Redis keep their data.' },
  HAFATRA_REDIS_PREFIX: { default: 'hf', doc: 'Prefix of every Redis key (lets several deployments share one Redis).' },
  LOG_LEVEL: { default: 'info', doc: 'pino log level: fatal, error, warn, info, debug, trace, silent.' },
  LOG_FORMAT: {
    default: 'auto',
    doc: 'auto: readable lines when stdout is a terminal (per-request lines only at LOG_LEVEL=debug), JSON otherwise; pretty or json to choose.',
  },
  HAFATRA_PG_POOL_SIZE: { default: '20', doc: "Postgres connections per process, plus half as many again in the pool of the hot paths' prepared statements (claims, status reports, message lists)." },
  HAFATRA_PG_CONNECT_TIMEOUT_MS: { default: '5000', doc: 'Longest wait for a Postgres connection (connecting, or a free one from the pool); past it the request answers 500.' },
  HAFATRA_PG_STATEMENT_TIMEOUT_MS: {
    default: '30000',
    doc: 'Postgres cancels a statement running longer (0: no limit; migrations have none). A server that stops answering altogether is given up 5 s later.',
  },
  HAFATRA_COMPAT_PORT: {
    default: '',
    doc: 'Port of an optional second HTTP listener for clients the main port cannot answer: HTTP/1.0 (nginx without `proxy_http_version 1.1`), requests without a Host header, pipelined requests. Slower than PORT; empty: off.',
  },
  HAFATRA_HTTPS: {
    default: 'false',
    doc: "true: PORT serves HTTPS only (what the SMS Gateway for Android app needs on a LAN), with a certificate for this machine's LAN addresses and host name, issued at each start by a local CA made once in HAFATRA_DATA_DIR/tls (phones install it: docs/android-app.md). `hafatra start --https` sets it. Behind a reverse proxy with a real certificate, leave it false.",
  },
  HAFATRA_HTTPS_NAMES: { default: '', doc: 'Comma list of extra host names or IP addresses the HAFATRA_HTTPS certificate covers (a DNS name of the machine, a second address).' },
  HAFATRA_DRAIN_SECONDS: {
    default: '5',
    doc: 'On SIGTERM the API first answers `/readyz` 503 `draining` and keeps serving for this long (so a load balancer stops sending it new requests), then stops listening, lets requests in flight finish and closes phone sockets with 1001 (they reconnect elsewhere). 0: no wait.',
  },
  HAFATRA_METRICS_TOKEN: {
    default: '',
    doc: 'Bearer token that `GET /metrics` (Prometheus text format) requires in `Authorization: Bearer <token>`. Empty: `/metrics` answers 404 (off), so nothing is exposed by default.',
  },
  HAFATRA_METRICS_PORT: {
    default: '',
    doc: 'Port on which `hafatra worker` serves `GET /metrics` (webhook deliveries and backlog, its pools, process metrics), with the same `HAFATRA_METRICS_TOKEN` rule. Empty: the worker serves none (the API serves `/metrics` on PORT; `hafatra start` has both in one process).',
  },
  HAFATRA_ACCESS_LOG: { default: 'true', doc: 'One `info` log line per HTTP request as it is answered (request id, method, route pattern, status, duration). false: none.' },
  HAFATRA_BODY_LIMIT_BYTES: { default: '1048576', doc: 'Largest accepted request body; larger ones get 413.' },
  HAFATRA_TRUST_PROXY: {
    default: 'false',
    doc: "true behind one reverse proxy that appends X-Forwarded-For: the client's address is its last entry (the pairing and password attempt limits count per address: without it, behind a proxy, every client shares the proxy's). false: the socket's address, the header ignored.",
  },
  HAFATRA_ANONYMOUS_RATE_PER_SECOND: {
    default: '50',
    doc: 'Requests without a credential (no API key, no session cookie, no device token) and failed authentications allowed per client address and second, per API process, before anything else is done for them (token bucket refill; the address honours HAFATRA_TRUST_PROXY). Past it: 429 with Retry-After.',
  },
  HAFATRA_ANONYMOUS_BURST: { default: '500', doc: 'How many such requests one address may make at once before HAFATRA_ANONYMOUS_RATE_PER_SECOND applies (token bucket size).' },
  HAFATRA_ORG_CONCURRENCY: {
    default: '64',
    doc: "Requests of one organization an API process handles at once (a phone's HTTP requests: 8); up to 16 times as many more wait in the organization's own line, and past that it gets 429 with Retry-After: 1. One tenant's flood then waits in its own line, not in front of every other tenant's requests in the Postgres pool.",
  },
  HAFATRA_PHONE_FRAMES_PER_SECOND: {
    default: '1000',
    doc: 'Frames one phone socket may send per second (token bucket refill; docs/device-protocol.md, Frame budget). Past it the frame is answered `rate_limited` with `retryAfterMs`, without touching Postgres; a socket that keeps flooding is closed with 4029.',
  },
  HAFATRA_PHONE_FRAME_BURST: { default: '2000', doc: 'Frames one phone socket may send at once before HAFATRA_PHONE_FRAMES_PER_SECOND applies (token bucket size).' },
  HAFATRA_KEY_RATE_PER_SECOND: { default: '100', doc: 'Default per-key request rate (token bucket refill per second).' },
  HAFATRA_KEY_RATE_BURST: { default: '200', doc: 'Default per-key burst (token bucket size).' },
  HAFATRA_RECONCILE_INTERVAL_MS: { default: '1000', doc: 'How often the worker queues send batches a crash left committed but not queued, and rebuilds lost dispatch queues.' },
  HAFATRA_RECONCILE_GRACE_MS: { default: '5000', doc: 'Age after which a committed batch not yet queued is considered left behind.' },
  HAFATRA_MESSAGE_TTL_SECONDS: { default: '86400', doc: 'How long a message may wait in the queue before it expires.' },
  HAFATRA_MESSAGE_RETENTION_DAYS: {
    default: '',
    doc: "Sent messages and their timelines are kept at least this many days: the worker drops each month's partition once all of it is older (so a message stays up to a month longer), never deleting rows one by one; a month still holding a message waiting or in a phone's hands is kept. Empty: kept for ever. (Received SMS bodies follow each organization's `retentionDays`.)",
  },
  HAFATRA_UNKNOWN_AFTER_SECONDS: { default: '600', doc: 'A claimed or sending message with no report for this long becomes unknown.' },
  HAFATRA_ONLINE_WINDOW_SECONDS: { default: '300', doc: 'A phone seen within this window is online; before it, stale.' },
  HAFATRA_INBOUND_FRESHNESS_SECONDS: { default: '2700', doc: 'How recent the default-SMS-app report must be for inbound to be unlocked (45 min).' },
  HAFATRA_PRESENCE_LEASE_SECONDS: {
    default: '30',
    doc: "Each API process renews a lease in Postgres every third of this; the worker's sweep marks offline (socket.connected false) the phones of a process whose lease lapsed (a process killed without closing its sockets).",
  },
  HAFATRA_SWEEP_INTERVAL_MS: { default: '5000', doc: 'How often the sweeps (expiry, silence, retention) run.' },
  HAFATRA_CLAIM_TIMEOUT_SECONDS: {
    default: '60',
    doc: 'A job a phone has not acknowledged `sending` for this long after claiming it is withdrawn and goes to another phone (0: never).',
  },
  HAFATRA_SILENT_PHONE_SECONDS: {
    default: '20',
    doc: 'A phone whose socket is gone and that made no request for this long loses the jobs it has not acknowledged `sending` (0: only the claim timeout withdraws).',
  },
  HAFATRA_LIMIT_COOLDOWN_SECONDS: { default: '60', doc: 'A phone that reports a send failed with limit_exceeded (Android refused it for sending too fast) takes no new job for this long.' },
  HAFATRA_PACING_PER_MINUTE: { default: '25', doc: 'SMS parts a phone is handed per rolling 60 seconds, all its SIMs together, unless the device sets its own (Android lets an app send 30).' },
  HAFATRA_OFF_NET_WAIT_SECONDS: {
    default: '20',
    doc: "How long a queued message waits for a phone with a SIM on the recipient's network (organization carriers), when another phone is on it; after that any phone sends it. 0: never wait.",
  },
  HAFATRA_WEBHOOK_ALLOW_HOSTS: { default: '', doc: 'Comma list of webhook hosts exempt from the public-address check (development, tests).' },
  HAFATRA_WEBHOOK_TIMEOUT_MS: { default: '10000', doc: 'A webhook delivery must answer 2xx within this time.' },
  HAFATRA_WEBHOOK_SCHEDULE_SECONDS: { default: '0,5,300,1800,7200,18000,36000,36000', doc: 'Delay before each delivery attempt; after the last one the delivery is dead.' },
  HAFATRA_WEBHOOK_DISABLE_AFTER_SECONDS: { default: '432000', doc: 'An endpoint failing without a success this long is disabled (5 days).' },
  HAFATRA_SESSION_IDLE_MINUTES: { default: '480', doc: 'A dashboard session unused this long ends (8 hours).' },
  HAFATRA_SESSION_MAX_HOURS: { default: '168', doc: 'A dashboard session ends this long after sign-in, used or not (7 days).' },
  HAFATRA_PUBLIC_URL: {
    default: '',
    doc: "The dashboard's address as members reach it (`https://sms.example.org`), used in printed one-time links; empty: `http://localhost:PORT`. An https address also marks the session cookie Secure.",
  },
  HAFATRA_AI_BASE_URL: { default: '', doc: 'OpenAI-compatible endpoint for the mobile-money AI fallback. Empty: no AI.' },
  HAFATRA_AI_API_KEY: { default: '', doc: 'API key of that endpoint.' },
  HAFATRA_AI_MODEL: { default: '', doc: 'Model name for that endpoint.' },
} as const satisfies Record<string, { default: string; doc: string }>;

export type SettingName = keyof typeof settings;

const Int = (min: number, max = Number.MAX_SAFE_INTEGER) => Type.Integer({ minimum: min, maximum: max });

const ConfigSchema = Type.Object({
  port: Int(0, 65535),
  host: Type.String({ minLength: 1 }),
  databaseUrl: Type.String(),
  redisUrl: Type.String(),
  dataDir: Type.String({ minLength: 1 }),
  redisPrefix: Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' }),
  logFormat: Type.Union([Type.Literal('auto'), Type.Literal('pretty'), Type.Literal('json')]),
  logLevel: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
  pgPoolSize: Int(1, 500),
  pgConnectTimeoutMs: Int(1),
  pgStatementTimeoutMs: Int(0),
  compatPort: Type.Union([Int(0, 65535), Type.Null()]),
  https: Type.Boolean(),
  httpsNames: Type.Array(Type.String({ pattern: '^[A-Za-z0-9.:-]+$' })),
  drainSeconds: Int(0, 3600),
  accessLog: Type.Boolean(),
  metricsToken: Type.String(),
  metricsPort: Type.Union([Int(0, 65535), Type.Null()]),
  bodyLimitBytes: Int(1024),
  trustProxy: Type.Boolean(),
  anonymousRatePerSecond: Int(1),
  anonymousBurst: Int(1),
  orgConcurrency: Int(1),
  phoneFramesPerSecond: Int(1),
  phoneFrameBurst: Int(1),
  keyRatePerSecond: Int(1),
  keyRateBurst: Int(1),
  reconcileIntervalMs: Int(10),
  reconcileGraceMs: Int(0),
  messageTtlSeconds: Int(1),
  messageRetentionDays: Type.Union([Int(1, 36500), Type.Null()]),
  unknownAfterSeconds: Int(1),
  onlineWindowSeconds: Int(1),
  presenceLeaseSeconds: Int(1),
  inboundFreshnessSeconds: Int(1),
  sweepIntervalMs: Int(10),
  pacingPerMinute: Int(1),
  claimTimeoutSeconds: Int(0),
  silentPhoneSeconds: Int(0),
  limitCooldownSeconds: Int(0),
  offNetWaitSeconds: Int(0, 3600),
  webhookAllowHosts: Type.Array(Type.String()),
  webhookTimeoutMs: Int(1),
  webhookScheduleSeconds: Type.Array(Int(0), { minItems: 1 }),
  webhookDisableAfterSeconds: Int(1),
  sessionIdleMinutes: Int(1),
  sessionMaxHours: Int(1),
  publicUrl: Type.String({ pattern: '^(https?://[^\\s/?#]+)?$' }),
  aiBaseUrl: Type.String(),
  aiApiKey: Type.String(),
  aiModel: Type.String(),
});

export type Config = Static<typeof ConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const num = (v: string) => (/^-?\d+$/.test(v.trim()) ? Number(v) : Number.NaN);
/** true or false; anything else stays a string, which validation then names. */
const bool = (v: string): boolean | string => (({ true: true, false: false }) as Record<string, boolean>)[v.trim().toLowerCase()] ?? v;

/** Reads and validates the configuration once; every later reader gets the typed object. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const get = (name: SettingName) => env[name] ?? settings[name].default;
  const raw = {
    port: num(get('PORT')),
    host: get('HOST'),
    databaseUrl: get('DATABASE_URL'),
    redisUrl: get('REDIS_URL'),
    dataDir: get('HAFATRA_DATA_DIR'),
    redisPrefix: get('HAFATRA_REDIS_PREFIX'),
    logLevel: get('LOG_LEVEL'),
    logFormat: get('LOG_FORMAT'),
    pgPoolSize: num(get('HAFATRA_PG_POOL_SIZE')),
    pgConnectTimeoutMs: num(get('HAFATRA_PG_CONNECT_TIMEOUT_MS')),
    pgStatementTimeoutMs: num(get('HAFATRA_PG_STATEMENT_TIMEOUT_MS')),
    compatPort: get('HAFATRA_COMPAT_PORT').trim() === '' ? null : num(get('HAFATRA_COMPAT_PORT')),
    https: bool(get('HAFATRA_HTTPS')),
    httpsNames: list(get('HAFATRA_HTTPS_NAMES')),
    drainSeconds: num(get('HAFATRA_DRAIN_SECONDS')),
    accessLog: bool(get('HAFATRA_ACCESS_LOG')),
    metricsToken: get('HAFATRA_METRICS_TOKEN').trim(),
    metricsPort: get('HAFATRA_METRICS_PORT').trim() === '' ? null : num(get('HAFATRA_METRICS_PORT')),
    bodyLimitBytes: num(get('HAFATRA_BODY_LIMIT_BYTES')),
    trustProxy: bool(get('HAFATRA_TRUST_PROXY')),
    anonymousRatePerSecond: num(get('HAFATRA_ANONYMOUS_RATE_PER_SECOND')),
    anonymousBurst: num(get('HAFATRA_ANONYMOUS_BURST')),
    orgConcurrency: num(get('HAFATRA_ORG_CONCURRENCY')),
    phoneFramesPerSecond: num(get('HAFATRA_PHONE_FRAMES_PER_SECOND')),
    phoneFrameBurst: num(get('HAFATRA_PHONE_FRAME_BURST')),
    keyRatePerSecond: num(get('HAFATRA_KEY_RATE_PER_SECOND')),
    keyRateBurst: num(get('HAFATRA_KEY_RATE_BURST')),
    reconcileIntervalMs: num(get('HAFATRA_RECONCILE_INTERVAL_MS')),
    reconcileGraceMs: num(get('HAFATRA_RECONCILE_GRACE_MS')),
    messageTtlSeconds: num(get('HAFATRA_MESSAGE_TTL_SECONDS')),
    messageRetentionDays: get('HAFATRA_MESSAGE_RETENTION_DAYS').trim() === '' ? null : num(get('HAFATRA_MESSAGE_RETENTION_DAYS')),
    unknownAfterSeconds: num(get('HAFATRA_UNKNOWN_AFTER_SECONDS')),
    onlineWindowSeconds: num(get('HAFATRA_ONLINE_WINDOW_SECONDS')),
    presenceLeaseSeconds: num(get('HAFATRA_PRESENCE_LEASE_SECONDS')),
    inboundFreshnessSeconds: num(get('HAFATRA_INBOUND_FRESHNESS_SECONDS')),
    sweepIntervalMs: num(get('HAFATRA_SWEEP_INTERVAL_MS')),
    pacingPerMinute: num(get('HAFATRA_PACING_PER_MINUTE')),
    claimTimeoutSeconds: num(get('HAFATRA_CLAIM_TIMEOUT_SECONDS')),
    silentPhoneSeconds: num(get('HAFATRA_SILENT_PHONE_SECONDS')),
    limitCooldownSeconds: num(get('HAFATRA_LIMIT_COOLDOWN_SECONDS')),
    offNetWaitSeconds: num(get('HAFATRA_OFF_NET_WAIT_SECONDS')),
    webhookAllowHosts: list(get('HAFATRA_WEBHOOK_ALLOW_HOSTS')),
    webhookTimeoutMs: num(get('HAFATRA_WEBHOOK_TIMEOUT_MS')),
    webhookScheduleSeconds: list(get('HAFATRA_WEBHOOK_SCHEDULE_SECONDS')).map(num),
    webhookDisableAfterSeconds: num(get('HAFATRA_WEBHOOK_DISABLE_AFTER_SECONDS')),
    sessionIdleMinutes: num(get('HAFATRA_SESSION_IDLE_MINUTES')),
    sessionMaxHours: num(get('HAFATRA_SESSION_MAX_HOURS')),
    publicUrl: get('HAFATRA_PUBLIC_URL').trim().replace(/\/+$/, ''),
    aiBaseUrl: get('HAFATRA_AI_BASE_URL'),
    aiApiKey: get('HAFATRA_AI_API_KEY'),
    aiModel: get('HAFATRA_AI_MODEL'),
    ...overrides,
  };
  const problems = [...Value.Errors(ConfigSchema, raw)].map((e) => `${e.path.slice(1)}: ${e.message}`);
  // The compatibility listener relays to PORT over plain HTTP.
  if (raw.https === true && raw.compatPort !== null) problems.push('https: HAFATRA_HTTPS cannot be combined with HAFATRA_COMPAT_PORT');
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return raw as Config;
}
