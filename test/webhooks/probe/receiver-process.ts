// The probe's receiver, in its own process: a lean HTTPS server that answers 200 at once (or
// never, under /hang) and counts arrivals per path. The parent asks for counts over IPC.
import https from 'node:https';
import type { AddressInfo } from 'node:net';

interface PathCount {
  n: number;
  first: number;
  last: number;
}

const counts = new Map<string, PathCount>();
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const server = https.createServer({ cert: process.env.PROBE_CERT, key: process.env.PROBE_KEY, keepAliveTimeout: 60_000 }, (req, res) => {
  req.resume();
  req.on('end', () => {
    const path = req.url ?? '/';
    const now = Date.now();
    const c = counts.get(path) ?? { n: 0, first: now, last: now };
    c.n++;
    c.last = now;
    counts.set(path, c);
    if (path.startsWith('/hang')) return;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
});

server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('message', (msg: { type: string }) => {
  if (msg.type === 'counts') process.send!({ counts: Object.fromEntries(counts), cpuMs: cpuMs() });
  if (msg.type === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
