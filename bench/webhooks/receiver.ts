import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { nowMs } from '../lib/stats.js';

/**
 * A lean HTTPS webhook receiver: counts deliveries per path with their arrival times and answers
 * 200 at once, except under /hang, which never answers (until closed). Counting, not storing,
 * keeps it cheap enough not to be the bottleneck.
 */
export interface CountingReceiver {
  port: number;
  arrivals(path: string): number[];
  /** Deliveries to `path` whose Hafatra-Event-Id had already arrived there (at-least-once repeats). */
  repeats(path: string): number;
  /** TLS connections accepted so far: a sender that reuses its connections opens few. */
  connections(): number;
  close(): Promise<void>;
}

export async function startCountingReceiver(cert: { cert: string; key: string }, host = '127.0.0.1'): Promise<CountingReceiver> {
  const seen = new Map<string, number[]>();
  const eventIds = new Map<string, Set<string>>();
  const repeats = new Map<string, number>();
  const server = https.createServer({ cert: cert.cert, key: cert.key, keepAliveTimeout: 60_000 }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      let list = seen.get(path);
      if (!list) seen.set(path, (list = []));
      list.push(nowMs());
      const eventId = req.headers['hafatra-event-id'];
      if (typeof eventId === 'string') {
        let ids = eventIds.get(path);
        if (!ids) eventIds.set(path, (ids = new Set()));
        if (ids.has(eventId)) repeats.set(path, (repeats.get(path) ?? 0) + 1);
        else ids.add(eventId);
      }
      if (path.startsWith('/hang')) return;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  let connections = 0;
  server.on('secureConnection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    connections: () => connections,
    port: (server.address() as AddressInfo).port,
    arrivals: (path) => seen.get(path) ?? [],
    repeats: (path) => repeats.get(path) ?? 0,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The receiver's own ceiling: signed-size POSTs from this process over `sockets` keep-alive connections, once they are open. */
export async function measureReceiverCeiling(port: number, ca: string, seconds: number, sockets = 16): Promise<number> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: sockets, ca });
  const body = JSON.stringify({ id: 'evt_x', event: 'message.queued', createdAt: new Date().toISOString(), data: { id: 'msg_x', status: 'queued', body: 'x'.repeat(300) } });
  let done = 0;
  let deadline = 0;
  const one = () => new Promise<void>((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', servername: 'localhost', port, path: '/ceiling', method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
    req.end(body);
  });
  await Promise.all(Array.from({ length: sockets }, one)); // TLS handshakes first: the worker's agent keeps its connections too
  deadline = Date.now() + seconds * 1000;
  const started = Date.now();
  await Promise.all(Array.from({ length: sockets }, async () => {
    while (Date.now() < deadline) {
      await one();
      done += 1;
    }
  }));
  agent.destroy();
  return done / ((Date.now() - started) / 1000);
}
