import { afterAll, beforeAll, expect, it } from 'vitest';
import { pairTestPhone, startPhoneTestApp, type PhoneTestApp } from '../support/phones.js';

/**
 * A SIM entry follows the heartbeat's own rule field by field: left out keeps the stored value,
 * null clears it. Leaving out `carrierName` used to wipe the carrier the phone reported before.
 */
let app: PhoneTestApp;
beforeAll(async () => {
  app = await startPhoneTestApp();
});
afterAll(() => app.close());

it('keeps a SIM field a heartbeat leaves out, clears one sent as null, and gives a new card null for what it leaves out', async () => {
  const { org, key } = await app.createOrg();
  const phone = await pairTestPhone(app, org.id);
  await phone.client.connect();
  try {
    const full = { subscriptionId: 3, slotIndex: 0, carrierName: 'Telma', displayName: 'YAS', phoneNumber: '+261340000001', countryIso: 'mg' };
    await phone.client.heartbeat({ sims: [full] });
    await phone.client.heartbeat({
      sims: [
        { subscriptionId: 3, displayName: null },
        { subscriptionId: 7, carrierName: 'Orange MG' },
      ],
    });
    const device = (await app.request('GET', `/v1/devices/${phone.deviceId}`, { key })).body;
    const sims = Object.fromEntries(device.sims.map((s: { subscriptionId: number }) => [s.subscriptionId, s]));
    expect(sims[3]).toMatchObject({ slotIndex: 0, carrierName: 'Telma', displayName: null, phoneNumber: '+261340000001', countryIso: 'MG', removedAt: null });
    expect(sims[7]).toMatchObject({ slotIndex: null, carrierName: 'Orange MG', displayName: null, phoneNumber: null, countryIso: null, removedAt: null });

    // A card left out of the list is removed; listed again with only its id, it comes back as it was.
    await phone.client.heartbeat({ sims: [{ subscriptionId: 7 }] });
    await phone.client.heartbeat({ sims: [{ subscriptionId: 3 }, { subscriptionId: 7 }] });
    const back = (await app.request('GET', `/v1/devices/${phone.deviceId}`, { key })).body;
    expect(back.sims.find((s: { subscriptionId: number }) => s.subscriptionId === 3)).toMatchObject({ carrierName: 'Telma', countryIso: 'MG', removedAt: null });
  } finally {
    await phone.client.close();
  }
});
