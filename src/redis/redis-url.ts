export type RedisTarget = { kind: 'single' } | { kind: 'cluster'; nodes: { host: string; port: number }[]; auth: { username?: string; password?: string }; tls: boolean };

const CLUSTER_SCHEMES = ['redis+cluster:', 'rediss+cluster:'];

/**
 * REDIS_URL names one Redis (`redis://`, `rediss://`, `unix:`; ioredis reads those itself) or a
 * Redis Cluster: `redis+cluster://[user:password@]host1:7000,host2:7001,...` (`rediss+cluster://`
 * for TLS). The listed nodes are only where the client starts: it learns the rest from them.
 */
export function parseRedisUrl(url: string): RedisTarget {
  const scheme = CLUSTER_SCHEMES.find((s) => url.startsWith(`${s}//`));
  if (!scheme) return { kind: 'single' };
  let rest = url.slice(scheme.length + 2).replace(/\/.*$/, '');
  const auth: { username?: string; password?: string } = {};
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const [user, password] = rest.slice(0, at).split(':', 2);
    if (user) auth.username = decodeURIComponent(user);
    if (password !== undefined) auth.password = decodeURIComponent(password);
    rest = rest.slice(at + 1);
  }
  const nodes = rest
    .split(',')
    .filter(Boolean)
    .map((hostPort) => {
      const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(hostPort);
      if (!match) throw new Error(`REDIS_URL: cluster node "${hostPort}" must be host:port`);
      return { host: match[1]!.replace(/^\[|\]$/g, ''), port: Number(match[2]) };
    });
  if (nodes.length === 0) throw new Error('REDIS_URL: a redis+cluster:// URL names at least one host:port');
  return { kind: 'cluster', nodes, auth, tls: scheme === 'rediss+cluster:' };
}

export function isClusterUrl(url: string): boolean {
  return parseRedisUrl(url).kind === 'cluster';
}
