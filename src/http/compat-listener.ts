import http from 'node:http';
import net from 'node:net';
import { errorReply } from './reply.js';
import { errors, type HafatraError } from '../errors/errors.js';
import { newId } from '../ids/ids.js';
import type { Logger } from '../logging/logger.js';
import { validIdempotencyKey, type RawIdempotencyKey } from './request-headers.js';

/**
 * HAFATRA_COMPAT_PORT: a Node http listener in front of the uWS port, for the clients uWS 20.30
 * does not answer. That build never dispatches an HTTP/1.0 request (nor an HTTP/1.1 one without a
 * Host header: the socket hangs until its idle timeout), and it closes a connection that sends a
 * request while an earlier one is still being answered (pipelining). Node's parser answers both,
 * in order; each request is then forwarded as plain HTTP/1.1 over kept-alive loopback connections,
 * one request per connection at a time, so uWS sees only what it handles. Phone WebSocket upgrades
 * are piped through as they are. The main port is untouched: this costs nothing unless enabled.
 */
export interface CompatListener {
  port: number;
  close(): Promise<void>;
}

// Headers that describe one hop, not the message (RFC 9110 §7.6.1): the loopback hop sets its own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/** The Idempotency-Key as sent, every occurrence counted (Node joins repeats into one value). */
function idempotencyKeyOf(req: http.IncomingMessage): RawIdempotencyKey | undefined {
  let count = 0;
  let value = '';
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() !== 'idempotency-key') continue;
    if (count++ === 0) value = req.rawHeaders[i + 1]!;
  }
  return count > 0 ? { value, count } : undefined;
}

export async function startCompatListener(opts: { host: string; port: number; upstreamPort: number; log: Logger }): Promise<CompatListener> {
  const upstreamHost = '127.0.0.1';
  const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 256 });
  /** Answers in the error shape, with a length: a client of a closing connection must not guess. */
  const answerError = (res: http.ServerResponse, err: HafatraError, requestId = newId('request'), close = false) => {
    const body = JSON.stringify(errorReply(err, requestId).body);
    res.writeHead(err.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      ...(close ? { connection: 'close' } : {}),
    });
    res.end(body);
  };
  // Node's own refusal of a Host-less HTTP/1.1 request has no body: this one has the error shape.
  const server = http.createServer({ requireHostHeader: false }, (req, res) => {
    if (req.httpVersion === '1.1' && !req.headers.host) return answerError(res, errors.invalid('an HTTP/1.1 request needs a Host header (RFC 9112)'), undefined, true);
    // Node reads header bytes one character each (latin1), so a key with bytes of 0x80 and above
    // is seen here whole, where the main port sees it trimmed: refused here, as the spec says.
    const key = idempotencyKeyOf(req);
    if (key) {
      try {
        validIdempotencyKey(key);
      } catch (err) {
        return answerError(res, err as HafatraError);
      }
    }
    const headers: http.OutgoingHttpHeaders = { host: req.headers.host || `localhost:${opts.upstreamPort}` };
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    const upstream = http.request({ agent, host: upstreamHost, port: opts.upstreamPort, method: req.method, path: req.url, headers }, (answer) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      res.writeHead(answer.statusCode ?? 500, out);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      // The uWS port is this process's own: failing to reach it is an internal error.
      const requestId = newId('request');
      opts.log.error({ err, requestId }, 'compatibility listener: upstream request failed');
      if (res.headersSent) return void res.destroy();
      answerError(res, errors.internal(), requestId);
    });
    req.pipe(upstream);
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy(); // the client left: do not keep the upstream busy
    });
  });
  // Phone sockets: the upgrade request is replayed to uWS byte for byte, then both sides piped.
  // The http server stops tracking them once upgraded: they are ended here on close.
  const piped = new Set<net.Socket>();
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    piped.add(socket);
    socket.once('close', () => piped.delete(socket));
    const upstream = net.connect(opts.upstreamPort, upstreamHost, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  server.on('clientError', (_err, socket: net.Socket) => {
    if (!socket.writable) return void socket.destroy();
    const requestId = newId('request');
    const body = JSON.stringify(errorReply(errors.invalid('malformed HTTP request'), requestId).body);
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nX-Request-Id: ${requestId}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        // Requests in flight finish (within a grace), then the loopback connections go.
        const grace = setTimeout(() => server.closeAllConnections(), 10_000);
        server.close(() => {
          clearTimeout(grace);
          agent.destroy();
          resolve();
        });
        server.closeIdleConnections();
        for (const socket of piped) socket.destroy();
      }),
  };
}
