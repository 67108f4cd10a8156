import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { authenticatedUpgrade } from '../../src/http/socket-upgrade.js';
import { errors } from '../../src/errors/errors.js';
import { createLogger } from '../../src/logging/logger.js';

const unused = async (): Promise<never> => {
  throw new Error('unused');
};
let server: HttpServer;
let port: number;
const unexpected: unknown[] = [];
const opened: string[] = [];
let releaseSlow: () => void = () => undefined;
let slowAsked: () => void = () => undefined;

beforeAll(async () => {
  const deps = {
    authenticators: { apiKey: unused, device: unused, member: unused },
    bodyLimitBytes: 1024,
    dashboard: false as const,
    log: createLogger('silent'),
    inflight: { count: 0 },
  };
  server = createHttpServer([], deps, (app) =>
    app.ws<{ name: string }>('/socket', {
      upgrade: authenticatedUpgrade(deps.log, '/socket', {
        read: (req) => req.getHeader('authorization'),
        admit: async (token) => {
          if (token === 'slow') {
            slowAsked();
            await new Promise<void>((resolve) => (releaseSlow = resolve));
          }
          if (token === 'bug') throw new Error('a bug in the check');
          if (token !== 'ok' && token !== 'slow') throw errors.unauthorized();
          return { name: token };
        },
        onUnexpected: (err) => unexpected.push(err),
      }),
      open: (ws) => {
        opened.push(ws.getUserData().name);
      },
    }),
  );
  port = await server.listen('127.0.0.1', 0);
});
afterAll(() => server.close(0));

type Answer = { kind: 'upgraded' } | { kind: 'refused'; status: number; body: { error: { code: string; requestId: string } } };

function upgrade(authorization: string, onSent?: (destroy: () => void) => void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${port}/socket`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', authorization },
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve({ kind: 'upgraded' });
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ kind: 'refused', status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
    onSent?.(() => req.destroy());
  });
}

describe('an authenticated WebSocket upgrade', () => {
  it('opens the socket with what the check returned', async () => {
    expect(await upgrade('ok')).toEqual({ kind: 'upgraded' });
    await expect.poll(() => opened).toContain('ok');
  });

  it('answers a refusal in the error shape, and anything else 500, logged', async () => {
    expect(await upgrade('nope')).toMatchObject({ kind: 'refused', status: 401, body: { error: { code: 'unauthorized', requestId: expect.stringMatching(/^req_/) } } });
    expect(unexpected).toEqual([]);
    expect(await upgrade('bug')).toMatchObject({ kind: 'refused', status: 500, body: { error: { code: 'internal_error' } } });
    expect(unexpected).toEqual([new Error('a bug in the check')]);
  });

  it('writes nothing for a client that left during the check, and keeps serving', async () => {
    const asked = new Promise<void>((resolve) => (slowAsked = resolve));
    const gone = upgrade('slow', (destroy) => void asked.then(destroy)).catch((err: Error) => err.message);
    expect(await gone).toMatch(/socket hang up|aborted/);
    // The server has seen the close once a later connection is served.
    expect(await upgrade('ok')).toEqual({ kind: 'upgraded' });
    releaseSlow();
    expect(await upgrade('ok')).toEqual({ kind: 'upgraded' });
    expect(opened).not.toContain('slow');
    expect(unexpected).toHaveLength(1);
  });
});
