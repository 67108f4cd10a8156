import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { pairPhone, startDevicesApp } from '../devices/support.js';
import { sms } from '../incoming/support.js';
import { keywordForm } from '../../src/opt-outs/keywords.js';

let app: TestApp;

beforeAll(async () => {
  app = await startDevicesApp();
});
afterAll(() => app.close());

/** An organization with one phone whose inbound is unlocked, posting received SMS as a phone does (POST /device/v1/incoming). */
async function orgWithPhone() {
  const { org, key } = await app.createOrg();
  const { deviceId, token } = await pairPhone(app, org.id);
  await app.ctx.db.query('UPDATE devices SET default_sms_app = true, default_sms_app_reported_at = now() WHERE id = $1', [deviceId]);
  const receive = async (...list: ReturnType<typeof sms>[]) => {
    const res = await app.request('POST', '/device/v1/incoming', { headers: { authorization: `Bearer ${token}` }, body: { messages: list } });
    expect(res.status).toBe(200);
    return res.body.results as { clientId: string; incomingId: string }[];
  };
  const optOuts = async () => (await app.request('GET', '/v1/opt-outs', { key })).body.optOuts as { number: string; source: string; incomingMessageId: string | null }[];
  const changes = async () => (await app.ctx.db.query('SELECT number, action, source, incoming_message_id AS "incomingId" FROM opt_out_changes WHERE org_id = $1 ORDER BY id', [org.id])).rows;
  return { org, key, receive, optOuts, changes };
}

describe('the compared form of a text', () => {
  it('ignores case, accents, surrounding white space and punctuation', () => {
    expect(['STOP', ' stop ', 'Stop.', 'stop!!', '  StOp ?'].map(keywordForm)).toEqual(['STOP', 'STOP', 'STOP', 'STOP', 'STOP']);
    expect(keywordForm('arrêt')).toBe('ARRET');
    expect(keywordForm('Désabonner')).toBe('DESABONNER');
    expect(keywordForm('stop  all')).toBe('STOP ALL');
    expect(keywordForm('...')).toBe('');
  });
});

describe('stop and start words in received SMS', () => {
  it('adds the sender of STOP to the list with the SMS, and START removes it, both recorded with their SMS', async () => {
    const { receive, optOuts, changes } = await orgWithPhone();
    const [stop] = await receive(sms({ from: '+261341110001', body: 'STOP' }));
    expect(await optOuts()).toEqual([expect.objectContaining({ number: '+261341110001', source: 'sms', incomingMessageId: stop!.incomingId })]);
    const [start] = await receive(sms({ from: '+261341110001', body: 'start' }));
    expect(await optOuts()).toEqual([]);
    expect(await changes()).toEqual([
      { number: '+261341110001', action: 'added', source: 'sms', incomingId: stop!.incomingId },
      { number: '+261341110001', action: 'removed', source: 'sms', incomingId: start!.incomingId },
    ]);
  });

  it('reads arrêt, " Stop. " and a national sender number in the default country (E.164 stored)', async () => {
    const { receive, optOuts } = await orgWithPhone();
    await receive(sms({ from: '0341110002', body: 'arrêt' }), sms({ from: '+261341110003', body: ' Stop. ' }), sms({ from: '+261341110004', body: 'DESABONNER' }));
    expect((await optOuts()).map((o) => o.number).sort()).toEqual(['+261341110002', '+261341110003', '+261341110004']);
  });

  it('does nothing for a text that only contains a stop word, or a sender that is not a phone number', async () => {
    const { receive, optOuts, changes } = await orgWithPhone();
    await receive(sms({ from: '+261341110005', body: 'Please stop' }), sms({ from: '+261341110006', body: 'STOPPER' }), sms({ from: 'MVola', body: 'STOP' }));
    expect(await optOuts()).toEqual([]);
    expect(await changes()).toEqual([]);
  });

  it('records an SMS the phone sends again (not acknowledged) once, and a second STOP changes nothing', async () => {
    const { receive, optOuts, changes } = await orgWithPhone();
    const first = sms({ from: '+261341110007', body: 'STOP' });
    const [a] = await receive(first);
    const [b] = await receive(first);
    expect(b!.incomingId).toBe(a!.incomingId);
    await receive(sms({ from: '+261341110007', body: 'stop' }));
    expect(await optOuts()).toHaveLength(1);
    expect(await changes()).toEqual([expect.objectContaining({ action: 'added', incomingId: a!.incomingId })]);
  });

  it("uses the organization's own words instead of the shipped ones", async () => {
    const { org, receive, optOuts } = await orgWithPhone();
    await app.ctx.db.query(`UPDATE organizations SET opt_out_stop_words = '{Tsia,Ajanony}', opt_out_start_words = '{Eny}' WHERE id = $1`, [org.id]);
    await receive(sms({ from: '+261341110008', body: 'ajanony!' }), sms({ from: '+261341110009', body: 'STOP' }));
    expect((await optOuts()).map((o) => o.number)).toEqual(['+261341110008']);
    await receive(sms({ from: '+261341110008', body: 'Eny' }));
    expect(await optOuts()).toEqual([]);
  });

  it('replies only when the organization configured a reply, even to a number that just opted out', async () => {
    const { org, key, receive } = await orgWithPhone();
    await app.ctx.db.query('UPDATE devices SET pacing_per_minute = 1000 WHERE org_id = $1', [org.id]);
    const sentTo = async (to: string) => (await app.request('GET', `/v1/messages?to=${encodeURIComponent(to)}`, { key })).body.messages as { id: string; body: string; status: string }[];
    await receive(sms({ from: '+261341110010', body: 'STOP' }));
    expect(await sentTo('+261341110010')).toEqual([]);

    await app.ctx.db.query(`UPDATE organizations SET opt_out_reply = 'Voaray. START raha hiverina.', opt_in_reply = 'Tongasoa indray.' WHERE id = $1`, [org.id]);
    await receive(sms({ from: '+261341110011', body: 'STOP' }));
    const [reply] = await sentTo('+261341110011');
    expect(reply).toMatchObject({ body: 'Voaray. START raha hiverina.', status: 'queued' });
    const detail = (await app.request('GET', `/v1/messages/${reply!.id}`, { key })).body;
    expect(detail.events[0]).toMatchObject({ fromStatus: null, toStatus: 'queued', source: 'system', code: 'opt_out_reply' });
    // Only the reply got through: a send of the organization's own is refused as usual.
    const later = await app.request('POST', '/v1/messages', { key, body: { to: '+261341110011', body: 'Promo' } });
    expect(later.body.messages[0]).toMatchObject({ status: 'failed', failureCode: 'opted_out' });

    await receive(sms({ from: '+261341110011', body: 'START' }));
    expect((await sentTo('+261341110011')).map((m) => m.body)).toContain('Tongasoa indray.');
  });
});
