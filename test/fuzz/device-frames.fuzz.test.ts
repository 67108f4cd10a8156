import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, pairTestPhone, sendMessages } from '../support/phones.js';
import { rawSocketSuite, type RawPhoneSocket, type Frame } from '../support/raw-socket.js';
import type { DeviceClient } from '../../src/phone/device-client.js';
import type { Job } from '../../src/phone/protocol.js';

/**
 * Every phone frame, mutated, over a real socket. Properties: the server lives; every frame gets
 * exactly one answer, an `ack` or an `error` of the documented shape (never internal_error: no
 * input is a server fault); a refused frame writes nothing; a well-behaved phone on the same
 * server keeps being served. Fixed seed: a failure is reproduced by running the file again.
 */
const SEED = 17;
const suite = rawSocketSuite();

/** Codes a phone frame may be refused with (docs/device-protocol.md, Errors). */
const FRAME_ERROR_CODES = ['invalid_request', 'invalid_transition', 'inbound_locked'];

let fuzz: { deviceId: string; orgId: string; heldId: string; socket: RawPhoneSocket };
let good: { client: DeviceClient; key: string; jobs: Job[] };

beforeAll(async () => {
  const a = await suite.app.createOrg();
  const phone = await pairTestPhone(suite.app, a.org.id);
  const socket = await suite.open(phone.token);
  await socket.request({ type: 'heartbeat', ref: 'unlock', defaultSmsApp: true });
  // One message, held by the fuzzed phone: status frames have a real job to aim at, and nothing
  // is left queued for a claim or a push to write behind the frames' backs.
  const [heldId] = await sendMessages(suite.app, a.key, 1);
  await eventually(() => socket.pushedJobs().length === 1, 5000, 'the held job');
  fuzz = { deviceId: phone.deviceId, orgId: a.org.id, heldId: heldId!, socket };

  const b = await suite.app.createOrg();
  const jobs: Job[] = [];
  const well = await pairTestPhone(suite.app, b.org.id, { client: { onJobs: (j) => jobs.push(...j) } });
  suite.sockets.push({ close: () => well.client.close() } as RawPhoneSocket);
  await well.client.connect();
  good = { client: well.client, key: b.key, jobs };
});

/** Everything a phone's frames can change, hashed. */
async function fingerprint(): Promise<string> {
  const { rows } = await suite.app.ctx.db.query(
    `SELECT md5(concat_ws('|',
       (SELECT row_to_json(d)::text FROM devices d WHERE id = $1),
       (SELECT json_agg(s ORDER BY subscription_id)::text FROM device_sims s WHERE device_id = $1),
       (SELECT json_agg(json_build_array(id, status, device_id, failure_code) ORDER BY id)::text FROM messages WHERE org_id = $2),
       (SELECT count(*)::text FROM message_events e JOIN messages m ON m.id = e.message_id WHERE m.org_id = $2),
       (SELECT count(*)::text FROM incoming_messages WHERE device_id = $1),
       (SELECT count(*)::text FROM incoming_parts WHERE device_id = $1))) AS h`,
    [fuzz.deviceId, fuzz.orgId],
  );
  return rows[0].h as string;
}

/** What the server must take `ref` to be: the frame's own when valid, else null. */
function expectedRef(payload: string | Buffer): string | null {
  try {
    const v = JSON.parse(payload.toString()) as unknown;
    const ref = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Frame).ref : undefined;
    return typeof ref === 'string' && ref.length >= 1 && ref.length <= 64 ? ref : null;
  } catch {
    return null;
  }
}

/** Sends one frame and returns the one answer it gets (pushed `jobs` frames are not answers). */
async function exchange(socket: RawPhoneSocket, payload: string | Buffer): Promise<Frame> {
  const answers = () => socket.frames.filter((f) => f.type === 'ack' || f.type === 'error');
  const before = answers().length;
  socket.send(payload);
  await socket.until(() => answers().length > before || socket.closeCode !== null, 10_000, 'the answer');
  expect(socket.closeCode, 'the server closed the socket').toBeNull();
  expect(answers().length).toBe(before + 1);
  return answers()[before]!;
}

/** The documented shapes: an ack carrying the ref, or an error with ref, code and message only. */
function expectDocumentedAnswer(answer: Frame, ref: string | null): void {
  expect(answer.ref).toBe(ref);
  if (answer.type === 'ack') {
    expect(ref).not.toBeNull();
    return;
  }
  expect(Object.keys(answer).sort()).toEqual(['code', 'message', 'ref', 'type']);
  expect(FRAME_ERROR_CODES).toContain(answer.code);
  expect(typeof answer.message).toBe('string');
}

// ---- generators ----

let counter = 0;
const freshRef = fc.constant(null).map(() => `f${++counter}`);
const now = () => new Date().toISOString();

/** Valid frames of every kind, the starting point of the mutations. */
const baseFrames = (): Record<string, () => Frame> => ({
  heartbeat: () => ({
    type: 'heartbeat',
    battery: { percent: 50, charging: true },
    networkType: 'lte',
    uptimeSeconds: 10,
    freeStorageBytes: 1000,
    appVersion: '1.0',
    defaultSmsApp: true,
    sentAt: now(),
    sims: [{ subscriptionId: 1, slotIndex: 0, carrierName: 'Telma', displayName: 'YAS', phoneNumber: null, countryIso: 'mg' }],
  }),
  claim: () => ({ type: 'claim', max: 1 }),
  status: () => ({ type: 'status', messageId: fuzz.heldId, status: 'sent', failureCode: 'no_service', at: now() }),
  incoming: () => ({
    type: 'incoming',
    clientId: `c${++counter}`,
    from: '+261340000001',
    body: 'Salama',
    receivedAt: now(),
    simSubscriptionId: 1,
    part: { ref: 1, index: 1, count: 2 },
  }),
});

/** Field paths a mutation may hit, by frame kind. */
const PATHS: Record<string, string[][]> = {
  heartbeat: [
    ['type'],
    ['ref'],
    ['battery'],
    ['battery', 'percent'],
    ['battery', 'charging'],
    ['networkType'],
    ['uptimeSeconds'],
    ['freeStorageBytes'],
    ['appVersion'],
    ['defaultSmsApp'],
    ['sentAt'],
    ['sims'],
    ['sims', '0'],
    ['sims', '0', 'subscriptionId'],
    ['sims', '0', 'carrierName'],
    ['sims', '0', 'countryIso'],
    ['sims', '0', 'slotIndex'],
  ],
  claim: [['type'], ['ref'], ['max']],
  status: [['type'], ['ref'], ['messageId'], ['status'], ['failureCode'], ['at']],
  incoming: [['type'], ['ref'], ['clientId'], ['from'], ['body'], ['receivedAt'], ['simSubscriptionId'], ['part'], ['part', 'ref'], ['part', 'index'], ['part', 'count']],
};

const noNul = (s: string) => s.replaceAll('\u0000', '');

/** Values that are wrong somewhere: wrong types, edges, long and odd strings. */
const nastyValue = (opts: { nulAndBigInts: boolean }): fc.Arbitrary<unknown> => {
  const strings = fc.string({ unit: 'binary', maxLength: 80 });
  return fc.oneof(
    fc.integer(),
    fc.integer({ min: -3, max: 3 }),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.constant(''),
    opts.nulAndBigInts ? strings : strings.map(noNul),
    fc.constantFrom('sent', 'delivered', 'queued', 'claimed', 'heartbeat', 'claim', 'status', 'incoming', 'ack', '2026-01-01T08:00Z', '2026-02-30T08:00Z', 'x'.repeat(65)),
    fc.constant('é'.repeat(100_000)), // well within the 256 KiB frame, far past every field's limit
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }).map((a) => (opts.nulAndBigInts ? a : JSON.parse(noNul(JSON.stringify(a))))),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.integer(), { maxKeys: 3 }),
    ...(opts.nulAndBigInts ? [fc.constantFrom(2 ** 31, 2 ** 53 - 1, 1e300, -(2 ** 31) - 1), fc.constant('a\u0000b')] : []),
  );
};

function mutate(frame: Frame, path: string[], op: 'delete' | 'set' | 'extra', value: unknown): Frame {
  const copy = structuredClone(frame) as Record<string, unknown>;
  let parent: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = parent[key];
    if (typeof next !== 'object' || next === null) return copy;
    parent = next as Record<string, unknown>;
  }
  const last = path.at(-1)!;
  if (op === 'delete') delete parent[last];
  else if (op === 'set') parent[last] = value;
  else parent[`unknown_${last}`] = value;
  return copy;
}

/** A frame of one kind with one to three mutations; or whole-frame garbage. */
const phoneFrame = (opts: { nulAndBigInts: boolean }): fc.Arbitrary<string | Buffer> => {
  const kinds = Object.keys(PATHS);
  const mutation = (kind: string) => fc.tuple(fc.constantFrom(...PATHS[kind]!), fc.constantFrom('delete' as const, 'set' as const, 'set' as const, 'extra' as const), nastyValue(opts));
  const mutated = fc.constantFrom(...kinds).chain((kind) =>
    fc.tuple(fc.constant(kind), freshRef, fc.array(mutation(kind), { minLength: 1, maxLength: 3 })).map(([k, ref, mutations]) => {
      let frame: Frame = { ...baseFrames()[k]!(), ref };
      for (const [path, op, value] of mutations) frame = mutate(frame, path, op, value);
      return JSON.stringify(frame);
    }),
  );
  const garbage = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
    fc.constantFrom('', '{', '[]', 'null', '"ref"', '{"ref":"x"}', '{"type":"claim"}', '{"type":"claim","ref":""}', '{"__proto__":{"ref":"p"},"type":"claim"}', '[{"type":"claim","ref":"a"}]'),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  );
  const filtered = opts.nulAndBigInts ? garbage : garbage.filter((g) => typeof g !== 'string' || !g.includes('\\u0000'));
  return fc.oneof({ arbitrary: mutated, weight: 4 }, { arbitrary: filtered, weight: 1 });
};

/** The property itself, over `numRuns` frames. */
async function fuzzFrames(opts: { nulAndBigInts: boolean; numRuns: number; seed: number }): Promise<void> {
  // The well-behaved phone keeps heartbeating on the same server throughout.
  let goodFailures = 0;
  let goodBeats = 0;
  let running = true;
  const beating = (async () => {
    while (running) {
      await good.client.heartbeat({ defaultSmsApp: true }).then(
        () => {
          goodBeats += 1;
        },
        () => {
          goodFailures += 1;
        },
      );
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    // Only acks may write: the state after a refused frame is the next frame's state before.
    let state = await fingerprint();
    await fc.assert(
      fc.asyncProperty(phoneFrame(opts), async (payload) => {
        const answer = await exchange(fuzz.socket, payload);
        expectDocumentedAnswer(answer, expectedRef(payload));
        const after = await fingerprint();
        if (answer.type === 'error') expect(after, 'a refused frame wrote something').toBe(state);
        state = after;
      }),
      { seed: opts.seed, numRuns: opts.numRuns, endOnFailure: true },
    );
  } finally {
    running = false;
    await beating;
  }
  expect(goodFailures).toBe(0);
  expect(goodBeats).toBeGreaterThan(0);
}

/** After the fuzzing, the well-behaved phone still gets work and reports it. */
async function wellBehavedPhoneIsServed(): Promise<void> {
  const [id] = await sendMessages(suite.app, good.key, 1);
  await eventually(() => good.jobs.some((j) => j.messageId === id), 5000, 'the job on the well-behaved phone');
  expect(await good.client.reportStatus({ messageId: id!, status: 'sending' })).toEqual({ messageId: id, status: 'sending' });
  expect((await suite.app.request('GET', '/openapi.json')).status).toBe(200);
}

describe('phone frames, fuzzed', () => {
  it('answers every mutated frame of every kind with one documented answer, writes nothing for a refused one, and keeps serving', async () => {
    await fuzzFrames({ nulAndBigInts: false, numRuns: 150, seed: SEED });
    await wellBehavedPhoneIsServed();
  }, 120_000);

  it('drops the connection of a frame past 256 KiB and of a text frame that is not UTF-8, serving everyone else', async () => {
    const { org } = await suite.app.createOrg();
    const phone = await pairTestPhone(suite.app, org.id);
    const big = await suite.open(phone.token);
    big.send(JSON.stringify({ type: 'heartbeat', ref: 'big', appVersion: 'x'.repeat(300 * 1024) }));
    // uWebSockets.js drops the connection without a close frame: the phone's library says 1006.
    expect(await big.closed).toEqual({ code: 1006, reason: '' });
    expect(big.frames).toEqual([]);

    const bad = await suite.open(phone.token);
    bad.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect(await bad.closed).toEqual({ code: 1006, reason: '' });
    expect(bad.frames).toEqual([]);

    // The same phone reconnects and is answered; a binary frame holding a JSON frame is read as text.
    const again = await suite.open(phone.token);
    expect(await exchange(again, Buffer.from(JSON.stringify({ type: 'claim', ref: 'bin', max: 1 })))).toMatchObject({ type: 'ack', ref: 'bin', jobs: [] });
    await wellBehavedPhoneIsServed();
  });
});

/**
 * U+0000 in strings and integers past 2^31-1 reached Postgres and answered internal_error: the
 * schemas' limits for them are helper h5-input-limits' part of issue 17. Until that branch is
 * merged, this block fails on those values alone.
 */
describe('phone frames, fuzzed with U+0000 and integers past 2^31-1 (schemas fixed by h5-input-limits)', () => {
  it('answers them with a documented answer too, never internal_error', async () => {
    await fuzzFrames({ nulAndBigInts: true, numRuns: 100, seed: SEED + 1 });
    await wellBehavedPhoneIsServed();
  }, 120_000);
});
