import { flag, int, list, oneOf, optionalInt, text, type Setting } from '../setting-kinds.js';

/** Where the process listens, what it connects to, and how it logs. */
export const processSettings = {
  port: { env: 'PORT', default: '3000', kind: int(0, 65535), doc: 'HTTP port of the API (HTTP + phone sockets).' },
  host: { env: 'HOST', default: '0.0.0.0', kind: text({ minLength: 1 }), doc: 'Interface the API listens on.' },
  databaseUrl: { env: 'DATABASE_URL', default: '', kind: text({ label: 'URL' }), doc: 'Postgres URL. Empty: `hafatra start` runs an embedded Postgres under HAFATRA_DATA_DIR.' },
  redisUrl: {
    env: 'REDIS_URL',
    default: '',
    kind: text({ label: 'URL' }),
    doc: 'Redis URL (`redis://`, `rediss://`), or a Redis Cluster: `redis+cluster://host1:7000,host2:7001` (docs/redis-cluster.md). Empty: `hafatra start` runs redis-server from PATH under HAFATRA_DATA_DIR.',
  },
  dataDir: { env: 'HAFATRA_DATA_DIR', default: '.hafatra', kind: text({ minLength: 1, label: 'path' }), doc: 'Where embedded Postgres and Redis keep their data.' },
  redisPrefix: {
    env: 'HAFATRA_REDIS_PREFIX',
    default: 'hf',
    kind: text({ pattern: '^[A-Za-z0-9_-]{1,32}$', label: '1–32 of A-Z a-z 0-9 _ -' }),
    doc: 'Prefix of every Redis key (lets several deployments share one Redis).',
  },
  logLevel: { env: 'LOG_LEVEL', default: 'info', kind: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'), doc: 'pino log level: fatal, error, warn, info, debug, trace, silent.' },
  logFormat: {
    env: 'LOG_FORMAT',
    default: 'auto',
    kind: oneOf('auto', 'pretty', 'json'),
    doc: 'auto: readable lines when stdout is a terminal (per-request lines only at LOG_LEVEL=debug), JSON otherwise; pretty or json to choose.',
  },
  pgPoolSize: {
    env: 'HAFATRA_PG_POOL_SIZE',
    default: '20',
    kind: int(1, 500),
    doc: "Postgres connections per process, plus half as many again in the pool of the hot paths' prepared statements (claims, status reports, message lists).",
  },
  messageCacheEntries: {
    env: 'HAFATRA_MESSAGE_CACHE_ENTRIES',
    default: '5000',
    kind: int(0, 1_000_000),
    doc: 'Bodies of GET /v1/messages/{id} each API process keeps (1–3 KB each, the oldest dropped first), so a message polled while it does not change costs no Postgres read; every change drops its body, on every process, through Redis. 0: none kept.',
  },
  pgConnectTimeoutMs: {
    env: 'HAFATRA_PG_CONNECT_TIMEOUT_MS',
    default: '5000',
    kind: int(1),
    doc: 'Longest wait for a Postgres connection (connecting, or a free one from the pool); past it the request answers 500.',
  },
  pgStatementTimeoutMs: {
    env: 'HAFATRA_PG_STATEMENT_TIMEOUT_MS',
    default: '30000',
    kind: int(0),
    doc: 'Postgres cancels a statement running longer (0: no limit; migrations have none). A server that stops answering altogether is given up 3–5 s later, its connection closed.',
  },
  compatPort: {
    env: 'HAFATRA_COMPAT_PORT',
    default: '',
    kind: optionalInt(0, 65535),
    doc: 'Port of an optional second HTTP listener for clients the main port cannot answer: HTTP/1.0 (nginx without `proxy_http_version 1.1`), requests without a Host header, pipelined requests. Slower than PORT; empty: off.',
  },
  https: {
    env: 'HAFATRA_HTTPS',
    default: 'false',
    kind: flag,
    doc: "true: PORT serves HTTPS only (what the SMS Gateway for Android app needs on a LAN), with a certificate for this machine's LAN addresses and host name, issued at each start by a local CA made once in HAFATRA_DATA_DIR/tls (phones install it: docs/android-app.md). `hafatra start --https` sets it. Behind a reverse proxy with a real certificate, leave it false.",
  },
  httpsNames: {
    env: 'HAFATRA_HTTPS_NAMES',
    default: '',
    kind: list(text({ pattern: '^[A-Za-z0-9.:-]+$' }).schema),
    doc: 'Comma list of extra host names or IP addresses the HAFATRA_HTTPS certificate covers (a DNS name of the machine, a second address).',
  },
  drainSeconds: {
    env: 'HAFATRA_DRAIN_SECONDS',
    default: '5',
    kind: int(0, 3600),
    doc: 'On SIGTERM the API first answers `/readyz` 503 `draining` and keeps serving for this long (so a load balancer stops sending it new requests), then stops listening, lets requests in flight finish and closes phone sockets with 1001 (they reconnect elsewhere). 0: no wait.',
  },
  metricsToken: {
    env: 'HAFATRA_METRICS_TOKEN',
    default: '',
    kind: text({ trim: true }),
    doc: 'Bearer token that `GET /metrics` (Prometheus text format) requires in `Authorization: Bearer <token>`. Empty: `/metrics` answers 404 (off), so nothing is exposed by default.',
  },
  metricsPort: {
    env: 'HAFATRA_METRICS_PORT',
    default: '',
    kind: optionalInt(0, 65535),
    doc: 'Port on which `hafatra worker` serves `GET /metrics` (webhook deliveries and backlog, its pools, process metrics), with the same `HAFATRA_METRICS_TOKEN` rule. Empty: the worker serves none (the API serves `/metrics` on PORT; `hafatra start` has both in one process).',
  },
  heapReleaseMb: {
    env: 'HAFATRA_HEAP_RELEASE_MB',
    default: '32',
    kind: int(0, 65536),
    doc: "When a process has been quiet for a second (event loop busy under 10%) and V8's old generation has grown this many MB since the last such collection, it collects once (a pause of ~10–40 ms) so that the memory of a burst goes back to the system, not minutes later; after 8 s quiet, once more so that V8 can shrink its young generation (docs/operations.md, Memory after a burst). 0: off.",
  },
  accessLog: {
    env: 'HAFATRA_ACCESS_LOG',
    default: 'true',
    kind: flag,
    doc: 'One `info` log line per HTTP request as it is answered (request id, method, route pattern, status, duration). false: none.',
  },
} as const satisfies Record<string, Setting>;
