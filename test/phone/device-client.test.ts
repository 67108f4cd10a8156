import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPhoneTestApp, pairTestPhone, sendMessages, eventually, type PhoneTestApp } from '../support/phones.js';
import type { Job } from '../../src/phone/protocol.js';

let app: PhoneTestApp;
beforeAll(async () => {
  app = await startPhoneTestApp();
});
afterAll(() => app.close());

describe('DeviceClient', () => {
  it('receives a sent message as a pushed job and reports it to delivered', async () => {
    const { org, key } = await app.createOrg();
    const jobs: Job[] = [];
    const phone = await pairTestPhone(app, org.id, { client: { onJobs: (j) => jobs.push(...j) } });
    await phone.client.connect();
    const [id] = await sendMessages(app, key, 1);
    await eventually(() => jobs.length > 0, 2000, 'job');
    expect(jobs[0]!.messageId).toBe(id);
    for (const status of ['sending', 'sent', 'delivered'] as const) {
      expect(await phone.client.reportStatus({ messageId: id!, status })).toMatchObject({ messageId: id, status });
    }
    const m = (await app.request('GET', `/v1/messages/${id}`, { key })).body;
    expect(m.status).toBe('delivered');
    await phone.client.close();
  });
});
