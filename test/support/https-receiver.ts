// A real HTTPS server for webhook tests. Its self-signed certificate is made
// at test time in pure Node (createDevCertificate), so the openssl binary is
// not needed. Tests pass `ca` to trust it, script replies per request and
// read back what arrived.
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDevCertificate, DEFAULT_DEV_NAMES } from '../../src/webhooks/delivery/dev-certificate.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: Buffer;
  receivedAt: Date;
  /** Client port: equal ports on two requests mean the connection was reused. */
  remotePort: number;
}

export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (until the receiver is closed). */
  hang?: boolean;
  /** Answer 302 with this Location. */
  redirectTo?: string;
  /** Answer 200 with an endless body. */
  endlessBody?: boolean;
}

export type Responder = (request: ReceivedRequest, index: number) => ScriptedReply;

export interface HttpsReceiver {
  /** https://localhost:<port>/ */
  url: string;
  port: number;
  /** PEM certificate to trust. */
  ca: string;
  requests: ReceivedRequest[];
  respondWith(responder: Responder): void;
  close(): Promise<void>;
}

export interface HttpsReceiverOptions {
  /** Names in the certificate; defaults to localhost, 127.0.0.1, ::1. */
  names?: string[];
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

function writeEndless(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  const pump = (): void => {
    while (!res.destroyed && res.write(CHUNK));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

function reply(res: ServerResponse, scripted: ScriptedReply): void {
  if (scripted.hang) return;
  if (scripted.endlessBody) return writeEndless(res);
  const send = (): void => {
    if (scripted.redirectTo) {
      res.writeHead(302, { Location: scripted.redirectTo, ...scripted.headers });
      res.end();
      return;
    }
    res.writeHead(scripted.status ?? 200, scripted.headers);
    res.end(scripted.body ?? '');
  };
  if (scripted.delayMs) setTimeout(send, scripted.delayMs);
  else send();
}

export async function startHttpsReceiver(options: HttpsReceiverOptions = {}): Promise<HttpsReceiver> {
  const { cert, key } = createDevCertificate({ names: options.names ?? DEFAULT_DEV_NAMES });
  const requests: ReceivedRequest[] = [];
  let responder: Responder = () => ({ status: 200 });
  const server = https.createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: new Date(),
        remotePort: req.socket.remotePort ?? 0,
      };
      requests.push(received);
      reply(res, responder(received, requests.length - 1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}/`,
    port,
    ca: cert,
    requests,
    respondWith: (next) => {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
