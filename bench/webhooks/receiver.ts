import https from 'node:https';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeUws, type HttpResponse, type us_listen_socket } from '../../src/http/uws.js';
import { nowMs } from '../lib/stats.js';

/**
 * A lean HTTPS webhook receiver on uWebSockets.js (its TLS): counts deliveries per path with their
 * arrival times and answers 200 once the body is in, except under /hang, which never answers
 * (until closed). It shares the machine with the service it measures, so it must cost little:
 * at 3,000 requests/s, 22-25 us of CPU per request, against 52-54 us for Node's https server.
 */
export interface CountingReceiver {
  port: number;
  arrivals(path: string): number[];
  /** Deliveries to `path` whose Hafatra-Event-Id had already arrived there (at-least-once repeats). */
  repeats(path: string): number;
  /** Requests under /hang held open now. */
  hanging(): number;
  /** Closes the connections of every request held under /hang, as a sender's timeout would. */
  releaseHanging(): void;
  /** TCP connections open to the receiver now (Linux; null elsewhere): a sender that reuses its connections holds few. */
  openConnections(): number | null;
  close(): Promise<void>;
}

/** Established connections whose local port is `port`, from /proc/net/tcp and tcp6. */
function establishedTo(port: number): number | null {
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let count = 0;
  try {
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const [, localAddress, , state] = line.trim().split(/\s+/);
        if (state === '01' && localAddress?.endsWith(local)) count += 1;
      }
    }
  } catch {
    return null;
  }
  return count;
}

export async function startCountingReceiver(cert: { cert: string; key: string }, host = '127.0.0.1'): Promise<CountingReceiver> {
  const uWS = nativeUws();
  // uWS reads its certificate from files, once, when the app is made.
  const dir = await mkdtemp(join(tmpdir(), 'hafatra-receiver-'));
  await Promise.all([writeFile(join(dir, 'cert.pem'), cert.cert), writeFile(join(dir, 'key.pem'), cert.key, { mode: 0o600 })]);
  const app = uWS.SSLApp({ cert_file_name: join(dir, 'cert.pem'), key_file_name: join(dir, 'key.pem') });
  await rm(dir, { recursive: true, force: true });
  const seen = new Map<string, number[]>();
  const eventIds = new Map<string, Set<string>>();
  const repeats = new Map<string, number>();
  const held = new Set<HttpResponse>();
  const arrived = (path: string, eventId: string) => {
    let list = seen.get(path);
    if (!list) seen.set(path, (list = []));
    list.push(nowMs());
    if (!eventId) return;
    let ids = eventIds.get(path);
    if (!ids) eventIds.set(path, (ids = new Set()));
    if (ids.has(eventId)) repeats.set(path, (repeats.get(path) ?? 0) + 1);
    else ids.add(eventId);
  };
  app.any('/*', (res, req) => {
    // req lives only until this handler returns: copy what is needed now.
    const path = req.getUrl();
    const eventId = req.getHeader('hafatra-event-id');
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
      held.delete(res);
    });
    res.onData((_chunk, last) => {
      if (!last) return;
      arrived(path, eventId);
      if (aborted) return;
      if (path.startsWith('/hang')) {
        held.add(res);
        return;
      }
      res.cork(() => res.writeStatus('200 OK').writeHeader('content-type', 'text/plain').end('ok'));
    });
  });
  const listening = await new Promise<us_listen_socket | false>((resolve) => app.listen(host, 0, resolve));
  if (!listening) throw new Error(`webhook receiver could not listen on ${host}`);
  const port = uWS.us_socket_local_port(listening);
  return {
    port,
    openConnections: () => establishedTo(port),
    arrivals: (path) => seen.get(path) ?? [],
    repeats: (path) => repeats.get(path) ?? 0,
    hanging: () => held.size,
    releaseHanging() {
      for (const res of [...held]) res.close(); // onAborted runs and forgets it
      held.clear();
    },
    async close() {
      // Closes the listening socket and every connection, the hanging ones included. The method
      // is in the v20.30 binary but not in its typings.
      (app as unknown as { close(): void }).close();
    },
  };
}

/** The receiver's own ceiling: signed-size POSTs from this process over `sockets` keep-alive connections, once they are open. */
export async function measureReceiverCeiling(port: number, ca: string, seconds: number, sockets = 16): Promise<number> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: sockets, ca });
  const body = JSON.stringify({ id: 'evt_x', event: 'message.queued', createdAt: new Date().toISOString(), data: { id: 'msg_x', status: 'queued', body: 'x'.repeat(300) } });
  let done = 0;
  let deadline = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
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
  await Promise.all(
    Array.from({ length: sockets }, async () => {
      while (Date.now() < deadline) {
        await one();
        done += 1;
      }
    }),
  );
  agent.destroy();
  return done / ((Date.now() - started) / 1000);
}
