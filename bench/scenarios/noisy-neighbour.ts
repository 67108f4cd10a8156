import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { apiExpect } from '../lib/http.js';
import { runLoad, type LoadResult } from '../lib/load.js';
import { RECIPIENTS_PER_POST, sendBody } from '../lib/recipients.js';
import type { Target } from '../target/target.js';
import { keyRotation } from './bulk-send.js';
import type { NoiseResult, NoiseStart } from './noise-protocol.js';
import type { Scenario } from './scenario.js';

/** Starts the noise in its own process (bench/scenarios/noise-process.ts); resolves with what it got. */
async function startNoise(target: Target, seconds: number, connections: number): Promise<{ stop(): Promise<NoiseResult> }> {
  const [noisy] = await target.tenants(1);
  const [group] = await target.phoneGroups(1, 1);
  const script = fileURLToPath(new URL('./noise-process.ts', import.meta.url));
  const child = fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const result = new Promise<NoiseResult>((resolve, reject) => {
    child.once('message', (r: NoiseResult) => resolve(r));
    child.once('exit', (code) => reject(new Error(`the noise process exited (${code}) before it answered`)));
  });
  result.catch(() => undefined); // awaited by stop()
  const start: NoiseStart = { url: target.url, key: noisy!.key, phoneToken: group!.phones[0]!.token, seconds, connections };
  child.send(start);
  return { stop: () => result };
}

/** The well-behaved organization's own work: bulk sends, then reads of its messages by id. */
async function wellBehaved(target: Target, rotation: ReturnType<typeof keyRotation>, paths: string[], key: string, seconds: number, connections: number) {
  const send = await runLoad({
    label: 'well-behaved bulk-send',
    url: `${target.url}/v1/messages`,
    method: 'POST',
    connections,
    seconds,
    body: sendBody(),
    headers: { 'content-type': 'application/json' },
    setupRequest: rotation.setupRequest,
  });
  const read = await runLoad({ label: 'well-behaved GET by id', url: `${target.url}${paths[0]}`, method: 'GET', connections, seconds, headers: { authorization: `Bearer ${key}` }, paths });
  return { send, read };
}

export const noisyNeighbour: Scenario = {
  name: 'noisy-neighbour',
  method:
    'A well-behaved organization bulk-sends (500 recipients a POST) and then reads its messages by id, each for the run time with ' +
    '4 connections: first alone, then beside the noise, all at once at the highest concurrency of the sweep: another organization ' +
    'POSTing 500 recipients at full speed with one key, a phone of a third writing heartbeat frames as fast as its ' +
    'socket takes them (reconnecting when closed), and an anonymous client GETting /openapi.json. ' +
    'The noise runs in a process of its own, as other machines would. Reports the well-behaved figures with noise as a ratio to alone (goal >= 0.8), and what the noise got.',
  async run({ target, settings }) {
    const connections = Math.max(...settings.sweep);
    const seconds = settings.seconds;
    // Enough daily limits for both phases at 100,000 messages a second (alone at c=4 reached 60,000).
    const goodTenants = await target.tenants(Math.max(2, Math.ceil((2 * seconds * 100_000) / 99_500) + 1));
    const rotation = keyRotation(goodTenants);
    const reader = goodTenants[0]!.key;
    const sent = await apiExpect<{ messages: Array<{ id: string }> }>(202, target.url, reader, 'POST', '/v1/messages', JSON.parse(sendBody(RECIPIENTS_PER_POST, 900_000)));
    const paths = sent.messages.map((m) => `/v1/messages/${m.id}`);

    // Well-behaved: a few requests at a time, where the noise uses every connection of the sweep.
    const polite = Math.max(1, Math.min(...settings.sweep.filter((c) => c > 1), 4));
    const alone = await wellBehaved(target, rotation, paths, reader, seconds, polite);
    const noise = await startNoise(target, seconds * 2 + 1, connections);
    const beside = await wellBehaved(target, rotation, paths, reader, seconds, polite);
    const got = await noise.stop();

    const ratio = (a: LoadResult, b: LoadResult) => (a.okPerSecond === 0 ? 0 : b.okPerSecond / a.okPerSecond);
    return {
      figures: [
        { key: 'noisy-neighbour.sendRatio', label: 'well-behaved bulk-send with noise / alone', value: ratio(alone.send, beside.send), unit: 'x', goal: { op: '>=', value: 0.8 } },
        { key: 'noisy-neighbour.readRatio', label: 'well-behaved GET by id with noise / alone', value: ratio(alone.read, beside.read), unit: 'x', goal: { op: '>=', value: 0.8 } },
        { key: 'noisy-neighbour.send.p99', label: `well-behaved POST p99 with noise (alone: ${alone.send.p99} ms)`, value: beside.send.p99, unit: 'ms' },
        { key: 'noisy-neighbour.read.p99', label: `well-behaved GET p99 with noise (alone: ${alone.read.p99} ms)`, value: beside.read.p99, unit: 'ms' },
        { key: 'noisy-neighbour.phoneRateLimited', label: 'flooding phone: frames answered rate_limited', value: got.phone.rateLimited, unit: 'frames' },
      ],
      details: { connections, polite, alone, beside, noise: got },
    };
  },
};
