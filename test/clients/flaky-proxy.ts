import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP hop in front of Hafatra that fails the way a load balancer or a briefly
 * overloaded server does, so the clients' retries meet real answers on a real socket:
 * - the first attempt of each Idempotency-Key gets 503 with Retry-After: 1 (the request never
 *   reaches Hafatra); later attempts go through;
 * - GET /v1/messages/msg_http500 always gets a 500 without Retry-After.
 * Everything else is passed to Hafatra unchanged.
 */
export interface FlakyProxy {
  url: string;
  /** Requests seen, in order: method, path, idempotency key. */
  seen: { method: string; path: string; key: string | undefined }[];
  close(): Promise<void>;
}

const errorBody = (code: string, message: string) => JSON.stringify({ error: { code, message, requestId: 'proxy' } });

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  const keys = new Set<string>();
  const seen: FlakyProxy['seen'] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const key = req.headers['idempotency-key'] as string | undefined;
    seen.push({ method: req.method!, path: req.url!, key });
    if (key && !keys.has(key)) {
      keys.add(key);
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end(errorBody('internal_error', 'overloaded; retry shortly'));
      return;
    }
    if (req.method === 'GET' && req.url === '/v1/messages/msg_http500') {
      res.writeHead(500, { 'content-type': 'application/json' }).end(errorBody('internal_error', 'unexpected failure; quote the requestId when reporting it'));
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
    const answer = await fetch(target + req.url, { method: req.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
    const retryAfter = answer.headers.get('retry-after');
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
