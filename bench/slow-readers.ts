// `npx tsx bench/slow-readers.ts --url http://127.0.0.1:3000 --pid <API pid>`: issue 17 finding 3's
// reproduction. Many connections send GETs and never read the answers while one ordinary client
// keeps asking; prints the API's resident memory (baseline, peak) and the ordinary client's
// latencies and timeouts. Not part of `npm run bench`: it is an attack, not a workload.
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    path: { type: 'string', default: '/openapi.json' },
    connections: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '35' },
    interval: { type: 'string', default: '200' }, // ms between one connection's requests
    pid: { type: 'string' },
    'probe-timeout': { type: 'string', default: '5000' },
  },
});
const url = new URL(values.url!);
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const interval = Number(values.interval);
const probeTimeout = Number(values['probe-timeout']);
const request = `GET ${values.path} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`;

const rssMb = () => {
  if (!values.pid) return NaN;
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${values.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

const baseline = rssMb();
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 250);
const end = Date.now() + seconds * 1000;

let sent = 0;
let cut = 0;
async function nonReader(): Promise<void> {
  const s = net.connect(Number(url.port), url.hostname);
  s.pause();
  let alive = true;
  s.on('error', () => (alive = false));
  s.on('close', () => (alive = false));
  await new Promise((r) => s.once('connect', r).once('error', r));
  // Spread the connections over one interval so they do not all send at once.
  await new Promise((r) => setTimeout(r, Math.random() * interval));
  while (alive && Date.now() < end) {
    s.write(request);
    sent++;
    await new Promise((r) => setTimeout(r, interval));
  }
  if (!alive) cut++;
  s.destroy();
}

const latencies: number[] = [];
let timeouts = 0;
let failures = 0;
async function probe(): Promise<void> {
  while (Date.now() < end) {
    const t0 = performance.now();
    try {
      const res = await fetch(new URL(values.path!, url), { signal: AbortSignal.timeout(probeTimeout) });
      await res.arrayBuffer();
      if (res.ok) latencies.push(performance.now() - t0);
      else failures++;
    } catch (err) {
      if ((err as Error).name === 'TimeoutError') timeouts++;
      else failures++;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

await Promise.all([probe(), ...Array.from({ length: connections }, nonReader)]);
clearInterval(sampler);
await new Promise((r) => setTimeout(r, 3000));
latencies.sort((a, b) => a - b);
const q = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(0) : '-');
const probes = latencies.length + timeouts + failures;
console.log(
  JSON.stringify({
    connections,
    seconds,
    interval,
    path: values.path,
    requestsSentByNonReaders: sent,
    nonReadersCutByServer: cut,
    rssMb: { baseline: Math.round(baseline), peak: Math.round(peak), after: Math.round(rssMb()) },
    probe: { requests: probes, ok: latencies.length, timeouts, failures, timeoutShare: probes ? +(timeouts / probes).toFixed(3) : 0, p50ms: q(0.5), p99ms: q(0.99), maxMs: q(1) },
  }),
);
process.exit(0);
