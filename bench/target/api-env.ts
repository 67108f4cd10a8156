/**
 * The environment of the bench's own `hafatra` processes: the services, the port, and the limits
 * that are not what is measured (per-key rate, default pacing) raised out of the way.
 */
export function benchEnv(services: { databaseUrl: string; redisUrl: string }, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    // info: the access log's line per request, as a server run with the defaults writes it.
    LOG_LEVEL: process.env.HAFATRA_BENCH_LOG_LEVEL ?? 'warn',
    // Stopping the target needs no load-balancer drain.
    HAFATRA_DRAIN_SECONDS: '0',
    HAFATRA_KEY_RATE_PER_SECOND: '1000000',
    HAFATRA_KEY_RATE_BURST: '1000000',
    HAFATRA_PACING_PER_MINUTE: '1000000',
  };
}
