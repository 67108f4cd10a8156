import { expect, it } from 'vitest';
import { parseRedisUrl } from '../../src/redis/redis-url.js';

it('reads one Redis from redis:// and rediss:// URLs (ioredis parses those itself)', () => {
  expect(parseRedisUrl('redis://127.0.0.1:6379')).toEqual({ kind: 'single' });
  expect(parseRedisUrl('rediss://user:pw@redis.example:6380/0')).toEqual({ kind: 'single' });
});

it('reads a cluster from redis+cluster:// with its seed nodes, credentials and TLS', () => {
  expect(parseRedisUrl('redis+cluster://10.0.0.1:7000,10.0.0.2:7001')).toEqual({
    kind: 'cluster',
    nodes: [
      { host: '10.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
    ],
    auth: {},
    tls: false,
  });
  expect(parseRedisUrl('rediss+cluster://hafatra:p%40ss@[::1]:7000')).toEqual({
    kind: 'cluster',
    nodes: [{ host: '::1', port: 7000 }],
    auth: { username: 'hafatra', password: 'p@ss' },
    tls: true,
  });
});

it('refuses a cluster node without a port, naming it', () => {
  expect(() => parseRedisUrl('redis+cluster://10.0.0.1:7000,10.0.0.2')).toThrow(/cluster node "10.0.0.2" must be host:port/);
  expect(() => parseRedisUrl('redis+cluster://')).toThrow(/at least one host:port/);
});
