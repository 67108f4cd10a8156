import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { createRedis } from '../../src/redis/connection.js';
import { redisKeys } from '../../src/redis/keys.js';
import { decodeDeviceSignal, encodeDeviceSignal, type DeviceSignal } from '../../src/redis/device-signal.js';
import { publishDeviceSignals, subscribeDeviceSignals } from '../../src/redis/device-signals.js';

const SIGNALS: DeviceSignal[] = [
  { type: 'work', orgId: 'org_1', deviceId: null, count: 3, origin: 'abc' },
  { type: 'work', orgId: 'org_1', deviceId: 'dev_1' },
  { type: 'withdrawn', orgId: 'org_1', deviceId: 'dev_1', messageIds: ['msg_1', 'msg_2'] },
  { type: 'revoked', orgId: 'org_1', deviceId: 'dev_1' },
  { type: 'app-event', orgId: 'org_1', deviceId: null, events: [{ event: 'WebhooksUpdated' }, { event: 'MessageCancelled', data: { messageId: 'msg_1' } }], delayMs: 50 },
  { type: 'app-pulled', orgId: 'org_1', deviceId: 'dev_1' },
];

describe('device signals: one encoder, one decoder', () => {
  it('decodes every signal it encodes', () => {
    for (const s of SIGNALS) expect(decodeDeviceSignal(encodeDeviceSignal(s))).toEqual(s);
  });

  it('lets through fields it does not know (a newer process during a rolling deploy)', () => {
    expect(decodeDeviceSignal('{"type":"revoked","orgId":"org_1","deviceId":"dev_1","reason":"x"}')).toMatchObject({ type: 'revoked', deviceId: 'dev_1' });
  });

  it.each([
    ['not JSON', '{"type":"work"'],
    ['empty', ''],
    ['a JSON null', 'null'],
    ['a number', '42'],
    ['an array', '[{"type":"work","orgId":"org_1","deviceId":null}]'],
    ['an unknown type', '{"type":"reboot","orgId":"org_1","deviceId":"dev_1"}'],
    ['no orgId', '{"type":"work","deviceId":null}'],
    ['a work signal without deviceId', '{"type":"work","orgId":"org_1"}'],
    ['a count that is text', '{"type":"work","orgId":"org_1","deviceId":null,"count":"3"}'],
    ['a withdrawal without messageIds', '{"type":"withdrawn","orgId":"org_1","deviceId":"dev_1"}'],
    ['a withdrawal for no phone', '{"type":"withdrawn","orgId":"org_1","deviceId":null,"messageIds":["m"]}'],
    ['a revocation with an empty deviceId', '{"type":"revoked","orgId":"org_1","deviceId":""}'],
    ['an app event the app does not know', '{"type":"app-event","orgId":"org_1","deviceId":null,"events":[{"event":"Reboot"}]}'],
  ])('answers null, without throwing, for %s', (_, text) => {
    expect(decodeDeviceSignal(text)).toBeNull();
  });
});

describe('device signals between processes', () => {
  const redis = createRedis(inject('redisUrl'), { name: 'signal-test' });
  const subscriber = createRedis(inject('redisUrl'), { name: 'signal-test-sub', subscriber: true });
  const keys = redisKeys(`sig${randomBytes(5).toString('hex')}`);
  afterAll(() => {
    subscriber.disconnect();
    return redis.quit();
  });

  it('keeps listening past a malformed message and a handler that throws, and logs both', async () => {
    const logged: { msg: string }[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line) as { msg: string }) });
    const seen: DeviceSignal[] = [];
    await subscribeDeviceSignals(subscriber, keys, log, (s) => {
      seen.push(s);
      if (s.type === 'revoked') throw new Error('handler bug');
    });
    await redis.publish(keys.deviceChannel('org_1'), 'not json');
    await redis.publish(keys.deviceChannel('org_1'), '{"type":"work","orgId":"org_1","deviceId":7}');
    await publishDeviceSignals(redis, keys, [{ type: 'revoked', orgId: 'org_1', deviceId: 'dev_1' }]);
    await publishDeviceSignals(redis, keys, [{ type: 'work', orgId: 'org_2', deviceId: null, count: 1 }]);
    await expect.poll(() => seen.map((s) => s.type)).toEqual(['revoked', 'work']);
    expect(logged.map((l) => l.msg)).toEqual(['device signal ignored: not one this version reads', 'device signal ignored: not one this version reads', 'device signal handling failed']);
  });
});
