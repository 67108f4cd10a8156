// `npx tsx bench/loopback-cluster.ts [--api 3] [--workers 2] [--redis-cluster]`: several Hafatra nodes behind nginx
// on this machine, for `npm run bench -- <scenario> --url …` (bench/README.md, "Many nodes").
// Embedded Postgres and Redis in a temp dir, N `hafatra api` and M `hafatra worker` processes
// (from source, through tsx), nginx on loopback in front, organizations with keys and phones
// made for the bench. --redis-cluster: a Redis Cluster (three masters, a replica each) instead of
// the one Redis. Prints the bench commands, then stays up until Ctrl-C.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedServices } from '../src/launcher/embedded-services.js';
import { loadConfig } from '../src/config/config.js';
import { openContext, closeContext } from '../src/app/runtime.js';
import { startNodes } from '../test/support/nodes.js';
import { startNginx } from '../test/support/nginx.js';
import { startTestRedisCluster } from '../test/support/redis-cluster.js';
import { createPhoneGroups, createTenants } from './target/local-fixtures.js';

const { values } = parseArgs({
  options: {
    api: { type: 'string', default: '3' },
    workers: { type: 'string', default: '2' },
    orgs: { type: 'string', default: '40' },
    phones: { type: 'string', default: '40' },
    'redis-cluster': { type: 'boolean', default: false },
  },
});
const count = (name: string, v: string | undefined) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a positive integer, not ${v}`);
  return n;
};
const apiCount = count('api', values.api);
const workerCount = count('workers', values.workers);
const orgCount = count('orgs', values.orgs);
const phoneCount = count('phones', values.phones);

/** As the bench's local server (bench/target/local.ts): limits that are not what is measured, raised. */
const NODE_SETTINGS: Record<string, string> = {
  LOG_LEVEL: 'warn',
  HAFATRA_DRAIN_SECONDS: '0',
  HAFATRA_KEY_RATE_PER_SECOND: '1000000',
  HAFATRA_KEY_RATE_BURST: '1000000',
  HAFATRA_PACING_PER_MINUTE: '1000000',
  // Every process keeps its pools; (api + workers) × 1.5 × this stays under Postgres's 200.
  HAFATRA_PG_POOL_SIZE: String(Math.max(5, Math.min(20, Math.floor(180 / 1.5 / (apiCount + workerCount))))),
};

const dataDir = await mkdtemp(join(tmpdir(), 'hafatra-cluster-'));
const say = (line: string) => process.stderr.write(`${line}\n`);
const services = await startEmbeddedServices({ dataDir, log: (line) => say(`[services] ${line}`) });
const cleanups: (() => Promise<void>)[] = [() => services.stop(), () => rm(dataDir, { recursive: true, force: true })];
let redisUrl = services.redisUrl;
if (values['redis-cluster']) {
  const cluster = await startTestRedisCluster();
  cleanups.unshift(() => cluster.stop());
  redisUrl = cluster.url;
  say(`[services] Redis Cluster: ${redisUrl}`);
}
const stores = { databaseUrl: services.databaseUrl, redisUrl, redisPrefix: 'hf', env: NODE_SETTINGS };
const shutdown = async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch((err: unknown) => say(`cleanup: ${String(err)}`));
};

try {
  say(`starting ${apiCount} api and ${workerCount} worker processes…`);
  const nodes = await startNodes(stores, { api: apiCount, worker: workerCount });
  cleanups.unshift(() => nodes.stop());
  const nginx = await startNginx(nodes.apis.map((n) => n.port));
  cleanups.unshift(() => nginx.stop());
  const ctx = openContext(loadConfig({ LOG_LEVEL: 'silent' }, { databaseUrl: services.databaseUrl, redisUrl, redisPrefix: stores.redisPrefix }), 'bench-cluster');
  cleanups.unshift(() => closeContext(ctx));
  // bulk-send rotates over organizations of one eligible phone each (100,000 messages a day each);
  // fleet takes one organization whose phones it connects.
  const tenants = await createTenants(ctx, orgCount);
  const [fleetGroup] = await createPhoneGroups(ctx, 1, phoneCount);
  const tokensFile = join(dataDir, 'device-tokens.json');
  await writeFile(tokensFile, JSON.stringify(fleetGroup!.phones));
  const keys = tenants.map((t) => t.key).join(',');
  console.log(`Hafatra: ${apiCount} api + ${workerCount} worker processes behind nginx at ${nginx.url}`);
  console.log(`  api nodes: ${nodes.apis.map((n) => n.url).join(' ')}`);
  console.log('Bench it (another terminal):');
  console.log(`  npm run bench -- bulk-send --url ${nginx.url} --key ${keys}`);
  console.log(`  npm run bench -- fleet --url ${nginx.url} --key ${fleetGroup!.key} --device-tokens ${tokensFile}`);
  console.log('Ctrl-C stops everything and removes the data.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
} finally {
  say('stopping…');
  await shutdown();
}
