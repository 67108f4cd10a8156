import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { publicRoute } from '../../src/http/router.js';
import { heldReplies } from '../../src/http/reply.js';
import { createLogger } from '../../src/logging/logger.js';
import { connectRaw, rawGet, type RawConnection } from '../support/raw-http-client.js';

// A body far larger than the kernel's socket buffers (4 MiB send + the client's receive window on
// loopback here): a client that does not read makes its reply stall on the first write.
const BIG = { items: 'x'.repeat(24 * 1024 * 1024) };
const BIG_LENGTH = JSON.stringify(BIG).length;
let served = 0;

let server: HttpServer;
let port: number;
const open: RawConnection[] = [];

beforeAll(async () => {
  const routes = [
    publicRoute({
      method: 'get',
      path: '/big',
      auth: { public: true },
      summary: 'a big body',
      handler: async () => {
        served++;
        return { status: 200, body: BIG };
      },
    }),
  ];
  const deps = {
    authenticators: {
      apiKey: async () => {
        throw new Error('unused');
      },
      device: async () => {
        throw new Error('unused');
      },
      member: async () => {
        throw new Error('unused');
      },
    },
    bodyLimitBytes: 1024,
    dashboard: false as const,
    log: createLogger('silent'),
    inflight: { count: 0 },
  };
  server = createHttpServer(routes, deps);
  port = await server.listen('127.0.0.1', 0);
});
afterAll(async () => {
  for (const c of open) c.socket.destroy();
  await server.close(0);
});

async function stalledClient(): Promise<RawConnection> {
  const c = await connectRaw(port);
  open.push(c);
  c.socket.pause();
  const before = heldReplies.responses;
  c.send(rawGet('/big'));
  await vi.waitFor(() => expect(heldReplies.responses).toBe(before + 1), { timeout: 20_000, interval: 20 });
  return c;
}

describe('replies to clients that do not read', () => {
  it('are held once by the process, then finish intact when the client reads', async () => {
    const c = await stalledClient();
    // What the process holds is the unsent part of this one body, not a growing buffer.
    expect(heldReplies.bytes).toBeGreaterThan(0);
    expect(heldReplies.bytes).toBeLessThanOrEqual(BIG_LENGTH);
    c.socket.resume();
    const [res] = await c.responses(1, 60_000);
    expect(res!.status).toBe(200);
    expect(JSON.parse(res!.body.toString('utf8'))).toEqual(BIG);
    await vi.waitFor(() => expect(heldReplies).toEqual({ responses: 0, bytes: 0 }), { timeout: 10_000 });
    // The connection stays usable for the next request.
    c.send(rawGet('/nowhere'));
    const [, next] = await c.responses(2);
    expect(next!.status).toBe(404);
  });

  it('get no new work: a request sent while its reply is stalled closes the connection unserved', async () => {
    const c = await stalledClient();
    const servedBefore = served;
    c.send(rawGet('/big'));
    c.socket.resume(); // read what is left, to see the server end it
    await c.closed;
    // Only a part of the first body came, and the second request never reached its handler
    // (the old end() buffered the whole body, then served the next request on top of it).
    expect(c.bytes().length).toBeLessThan(BIG_LENGTH);
    expect(served).toBe(servedBefore);
    await vi.waitFor(() => expect(heldReplies).toEqual({ responses: 0, bytes: 0 }), { timeout: 10_000 });
  });

  it('are dropped, and the connection closed, when the client stays silent', async () => {
    const c = await stalledClient();
    // uWS's idle timeout (about 10 s) or the process's own deadline, whichever comes first.
    await vi.waitFor(() => expect(heldReplies).toEqual({ responses: 0, bytes: 0 }), { timeout: 60_000, interval: 100 });
    // The paused client sees the reset once it reads: only a part of the body ever came.
    c.socket.resume();
    await c.closed;
    expect(c.bytes().length).toBeLessThan(BIG_LENGTH);
  }, 90_000);
});
