import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { tallySince } from '../../src/overview/sql/select-tally-since.js';
import { insertBatchWithMessages } from '../../src/messages/sql/insert-messages.js';
import { newId } from '../../src/ids/ids.js';

// The Overview counts messages from tallies (docs/dashboard-api.md); since migration 040 a send's
// own statement writes the tally of the messages it creates, with no insert trigger.
describe("a send's tally of its messages", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const tallied = async (orgId: string) => {
    const byStatus: Record<string, number> = {};
    for (const t of await tallySince(app.ctx.db, orgId, new Date(Date.now() - 86_400_000))) byStatus[t.status] = (byStatus[t.status] ?? 0) + t.count;
    return byStatus;
  };
  const counted = async (orgId: string) => {
    const { rows } = await app.ctx.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM messages WHERE org_id = $1 GROUP BY status', [orgId]);
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  };

  it('counts queued and opted-out messages in the send, moves them as they change, and counts nothing for a send that fails', async () => {
    const { org, key } = await app.createOrg();
    await insertTestDevice(app.ctx, org.id);
    expect((await app.request('POST', '/v1/opt-outs', { key, body: { number: '+261341110003' } })).status).toBe(201);
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: ['+261341110001', '+261341110002', '+261341110003'], body: 'Salama' } });
    expect(sent.status).toBe(202);
    expect(await tallied(org.id)).toEqual({ queued: 2, failed: 1 });
    expect(await tallied(org.id)).toEqual(await counted(org.id));

    expect((await app.request('POST', `/v1/messages/${sent.body.messages[0].id}/cancel`, { key })).status).toBe(200);
    expect(await tallied(org.id)).toEqual({ queued: 1, cancelled: 1, failed: 1 });
    expect(await tallied(org.id)).toEqual(await counted(org.id));

    // A statement that fails (an id taken already) writes neither messages nor their tally.
    const fields = {
      orgId: org.id,
      body: 'again',
      status: 'queued' as const,
      segments: 1,
      encoding: 'gsm7' as const,
      requestedDeviceId: null,
      simSubscriptionId: null,
      batchId: newId('batch'),
      resendOfId: null,
      priority: 0,
      autoResendsLeft: 0,
      autoResend: false,
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 3_600_000),
    };
    await expect(insertBatchWithMessages(app.ctx.db, fields, { idempotencyKey: null, requestHash: 'h' }, [{ id: sent.body.messages[1].id, to: '+261341110002' }])).rejects.toThrow(
      /duplicate key value violates unique constraint "messages_/,
    );
    expect(await tallied(org.id)).toEqual({ queued: 1, cancelled: 1, failed: 1 });
  });
});
