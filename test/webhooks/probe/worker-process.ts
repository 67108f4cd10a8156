// The probe's worker, in its own process: the webhook workers of `hafatra worker`, configured
// from the environment (DATABASE_URL, REDIS_URL, HAFATRA_*), trusting the probe receiver's CA.
import { loadConfig } from '../../../src/config/config.js';
import { closeContext, contextReady, openContext } from '../../../src/app/runtime.js';
import { startWebhookWorkers } from '../../../src/webhooks/workers.js';

const ctx = openContext(loadConfig(process.env), 'probe-worker');
await contextReady(ctx);
const numberFrom = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const workers = await startWebhookWorkers(ctx, {
  ca: process.env.PROBE_CERT,
  concurrency: numberFrom('PROBE_CONCURRENCY'),
  perEndpointConcurrency: numberFrom('PROBE_PER_ENDPOINT'),
});
process.send!({ ready: true });
process.on('message', async (msg: { type: string }) => {
  if (msg.type === 'cpu') {
    const u = process.cpuUsage();
    process.send!({ cpuMs: (u.user + u.system) / 1000 });
  }
  if (msg.type !== 'stop') return;
  // Jobs still waiting on the hanging endpoint would hold close() for a timeout or more.
  await Promise.race([workers.close().then(() => closeContext(ctx)), new Promise((r) => setTimeout(r, 3000))]);
  process.exit(0); // --cpu-prof writes its profile on exit
});
