import { describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { startTestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';

describe('graceful shutdown', () => {
  it('answers a request that is in flight when the server closes, then refuses new connections', async () => {
    const app = await startTestApp();
    const { org, key } = await app.createOrg();
    await insertTestDevice(app.ctx, org.id);
    const payload = JSON.stringify({ to: '+261341234567', body: 'in flight during shutdown' });

    let closed = false;
    let closedBeforeBodyEnded: boolean | undefined;
    const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        `${app.url}/v1/messages`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      // Half the body now: the request is in the server's hands and waits for the rest.
      req.write(payload.slice(0, 10));
      setTimeout(() => {
        void app.close().then(() => (closed = true));
        setTimeout(() => {
          closedBeforeBodyEnded = closed;
          req.end(payload.slice(10));
        }, 100);
      }, 100);
    });

    const res = await answer;
    expect(closedBeforeBodyEnded).toBe(false); // close() waited for the request
    expect(res.status).toBe(202);
    const id = res.body.messages[0].id;
    await expect.poll(() => closed).toBe(true);
    await expect(fetch(`${app.url}/openapi.json`)).rejects.toThrow();

    // The message the in-flight request accepted was written whole.
    const check = await startTestApp();
    try {
      const { rows } = await check.ctx.db.query('SELECT status FROM messages WHERE id = $1', [id]);
      expect(rows[0].status).toBe('queued');
    } finally {
      await check.close();
    }
  });
});
