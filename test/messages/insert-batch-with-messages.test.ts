import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertBatchWithMessages, type BatchFields } from '../../src/messages/sql/insert-messages.js';
import { newId, newIds } from '../../src/ids/ids.js';

describe('the batch row and its messages in one statement', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const fields = (orgId: string): BatchFields => {
    const now = new Date();
    return {
      orgId,
      body: 'Salama',
      status: 'queued',
      segments: 1,
      encoding: 'gsm7',
      requestedDeviceId: null,
      simSubscriptionId: null,
      batchId: newId('batch'),
      resendOfId: null,
      priority: 0,
      autoResendsLeft: 0,
      autoResend: false,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    };
  };
  const recipients = (n: number) => newIds('message', n).map((id, i) => ({ id, to: `+26134111${String(i).padStart(4, '0')}`, ...(i === 0 ? { failureCode: 'opted_out' } : {}) }));
  const count = async (sql: string, orgId: string) => Number((await app.ctx.db.query(sql, [orgId])).rows[0].n);

  it('writes the batch, its messages, their recipients and the tallies; a key that has a batch writes nothing', async () => {
    const { org } = await app.createOrg();
    const first = fields(org.id);
    expect(await insertBatchWithMessages(app.ctx.db, first, { idempotencyKey: 'k-1', requestHash: 'h' }, recipients(3))).toBe(true);
    const again = fields(org.id);
    expect(await insertBatchWithMessages(app.ctx.db, again, { idempotencyKey: 'k-1', requestHash: 'h' }, recipients(2))).toBe(false);

    const { rows: batches } = await app.ctx.db.query('SELECT id, message_count FROM batches WHERE org_id = $1', [org.id]);
    expect(batches).toEqual([{ id: first.batchId, message_count: 3 }]);
    const { rows: messages } = await app.ctx.db.query('SELECT status, failure_code FROM messages WHERE org_id = $1 ORDER BY id', [org.id]);
    expect(messages).toEqual([
      { status: 'failed', failure_code: 'opted_out' },
      { status: 'queued', failure_code: null },
      { status: 'queued', failure_code: null },
    ]);
    expect(await count('SELECT count(*) AS n FROM message_recipients WHERE org_id = $1', org.id)).toBe(3);
    const { rows: deltas } = await app.ctx.db.query('SELECT status, sum(delta)::int AS n FROM message_tally_deltas WHERE org_id = $1 GROUP BY status ORDER BY status', [org.id]);
    expect(deltas).toEqual([
      { status: 'failed', n: 1 },
      { status: 'queued', n: 2 },
    ]);
  });

  it('writes every batch without a key', async () => {
    const { org } = await app.createOrg();
    for (let i = 0; i < 2; i++) expect(await insertBatchWithMessages(app.ctx.db, fields(org.id), { idempotencyKey: null, requestHash: 'h' }, recipients(2))).toBe(true);
    expect(await count('SELECT count(*) AS n FROM batches WHERE org_id = $1', org.id)).toBe(2);
    expect(await count('SELECT count(*) AS n FROM messages WHERE org_id = $1', org.id)).toBe(4);
  });
});
