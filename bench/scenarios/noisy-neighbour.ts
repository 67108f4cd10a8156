import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { apiExpect } from '../lib/http.js';
import { runLoad, type LoadResult } from '../lib/load.js';
import { RECIPIENTS_PER_POST, sendBody } from '../lib/recipients.js';
import type { Target } from '../target/target.js';
import { keyRotation } from './bulk-send.js';
import type { NoiseEvent, NoiseResult, NoiseStart } from './noise-protocol.js';
import type { Scenario } from './scenario.js';

/** Starts the noise in its own process (bench/scenarios/noise-process.ts); resolves once it is under way. */
async function startNoise(target: Target, seconds: number, connections: number, dailyLimit: number): Promise<{ stop(): Promise<NoiseResult> }> {
  const [noisy] = await target.tenants(1, { dailyLimit });
  const [group] = await target.phoneGroups(1, 1);
  const script = fileURLToPath(new URL('./noise-process.ts', import.meta.url));
  const child = fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let started!: () => void;
  const underWay = new Promise<void>((resolve) => (started = resolve));
  const result = new Promise<NoiseResult>((resolve, reject) => {
    child.on('message', (e: NoiseEvent) => (e.type === 'started' ? started() : resolve(e)));
    child.once('exit', (code) => reject(new Error(`the noise process exited (${code}) before it answered`)));
  });
  result.catch(() => undefined); // awaited by stop()
  const start: NoiseStart = { url: target.url, key: noisy!.key, phoneToken: group!.phones[0]!.token, seconds, connections };
  child.send(start);
  await Promise.race([underWay, result]);
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

/** Two runs as one: their throughput's mean, and the worse of their p99s. */
function meanOf(a: LoadResult, b: LoadResult): LoadResult {
  return { ...a, okPerSecond: (a.okPerSecond + b.okPerSecond) / 2, p99: Math.max(a.p99, b.p99) };
}

/** What a new organization gets (`hafatra org create` without --daily-limit), and the spec's largest. */
const DEFAULT_DAILY_LIMIT = 1_000;
const MAX_DAILY_LIMIT = 100_000;

export const noisyNeighbour: Scenario = {
  name: 'noisy-neighbour',
  method:
    'A well-behaved organization bulk-sends (500 recipients a POST) and then reads its messages by id, each for the run time with ' +
    '4 connections: alone, beside the noise, beside the noise with a heavy sender, then alone again. The noise, all at once at the ' +
    "highest concurrency of the sweep: another organization (a new organization's daily limit, 1,000) POSTing 500 recipients at " +
    'full speed with one key, a phone of a third writing heartbeat frames as fast as its socket takes them (reconnecting when ' +
    'closed), and an anonymous client GETting /openapi.json; with a heavy sender, the same with the sender at the largest daily ' +
    'limit (100,000), which it spends. The noise runs in a process of its own, as other machines would. Reports the well-behaved ' +
    'figures beside the noise as a ratio to the mean of the two runs alone (goal >= 0.8), the same beside the heavy sender (no goal: ' +
    'with the share of the time its own accepted sends take), and what the noise got.',
  async run({ target, settings }) {
    const connections = Math.max(...settings.sweep);
    const seconds = settings.seconds;
    // Enough daily limits for the four phases at 100,000 messages a second (alone at c=4 reached 60,000).
    const goodTenants = await target.tenants(Math.max(2, Math.ceil((4 * seconds * 100_000) / 99_500) + 1));
    const rotation = keyRotation(goodTenants);
    const reader = goodTenants[0]!.key;
    const sent = await apiExpect<{ messages: Array<{ id: string }> }>(202, target.url, reader, 'POST', '/v1/messages', JSON.parse(sendBody(RECIPIENTS_PER_POST, 900_000)));
    const paths = sent.messages.map((m) => `/v1/messages/${m.id}`);

    // Well-behaved: a few requests at a time, where the noise uses every connection of the sweep.
    const polite = Math.max(1, Math.min(...settings.sweep.filter((c) => c > 1), 4));
    // Alone before and after the noise: the ratio is to their mean, so the machine's drift over
    // the run (this shared machine's throughput moves by tens of percent) cancels out.
    const before = await wellBehaved(target, rotation, paths, reader, seconds, polite);
    const besideNoise = async (dailyLimit: number) => {
      const noise = await startNoise(target, seconds * 2 + 1, connections, dailyLimit);
      const beside = await wellBehaved(target, rotation, paths, reader, seconds, polite);
      return { beside, noise: await noise.stop() };
    };
    const abuse = await besideNoise(DEFAULT_DAILY_LIMIT);
    const heavy = await besideNoise(MAX_DAILY_LIMIT);
    const after = await wellBehaved(target, rotation, paths, reader, seconds, polite);
    const alone = { send: meanOf(before.send, after.send), read: meanOf(before.read, after.read) };

    const ratio = (a: LoadResult, b: LoadResult) => (a.okPerSecond === 0 ? 0 : b.okPerSecond / a.okPerSecond);
    // What the heavy sender's accepted sends take from a server they share with the well-behaved
    // client: on a machine the well-behaved client saturates alone, no scheduler can give back
    // more than the time left once that work is done.
    const heavyShare = heavy.noise.sender.ok / (alone.send.okPerSecond * seconds);
    return {
      figures: [
        { key: 'noisy-neighbour.sendRatio', label: 'well-behaved bulk-send with noise / alone', value: ratio(alone.send, abuse.beside.send), unit: 'x', goal: { op: '>=', value: 0.8 } },
        { key: 'noisy-neighbour.readRatio', label: 'well-behaved GET by id with noise / alone', value: ratio(alone.read, abuse.beside.read), unit: 'x', goal: { op: '>=', value: 0.8 } },
        { key: 'noisy-neighbour.send.p99', label: `well-behaved POST p99 with noise (alone: ${alone.send.p99} ms)`, value: abuse.beside.send.p99, unit: 'ms' },
        { key: 'noisy-neighbour.read.p99', label: `well-behaved GET p99 with noise (alone: ${alone.read.p99} ms)`, value: abuse.beside.read.p99, unit: 'ms' },
        { key: 'noisy-neighbour.phoneRateLimited', label: 'flooding phone: frames answered rate_limited', value: abuse.noise.phone.rateLimited, unit: 'frames' },
        {
          key: 'noisy-neighbour.heavy.sendRatio',
          label: `... the sender spending a 100,000 daily limit: bulk-send / alone (its sends' own share of the time: ${heavyShare.toFixed(2)})`,
          value: ratio(alone.send, heavy.beside.send),
          unit: 'x',
        },
        { key: 'noisy-neighbour.heavy.readRatio', label: '... the sender spending a 100,000 daily limit: GET by id / alone', value: ratio(alone.read, heavy.beside.read), unit: 'x' },
      ],
      details: { connections, polite, alone: { before, after }, abuse, heavy },
    };
  },
};
