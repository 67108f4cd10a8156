import WebSocket from 'ws';
import { apiExpect } from '../lib/http.js';
import { runLoad, type LoadResult } from '../lib/load.js';
import { RECIPIENTS_PER_POST, sendBody } from '../lib/recipients.js';
import type { PhoneCredential, Target } from '../target/target.js';
import { keyRotation } from './bulk-send.js';
import type { Scenario } from './scenario.js';

/** The noise: what one abusive tenant and one anonymous client do at once, until stopped. */
interface Noise {
  stop(): Promise<{ sender: LoadResult; anonymous: LoadResult; phone: PhoneFlood }>;
}

interface PhoneFlood {
  framesSent: number;
  rateLimited: number;
  closedForFlooding: number;
}

/** One phone writing heartbeats as fast as its socket takes them, reconnecting whenever it is closed. */
function floodFrames(url: string, phone: PhoneCredential): { stop(): PhoneFlood } {
  const stats: PhoneFlood = { framesSent: 0, rateLimited: 0, closedForFlooding: 0 };
  let stopped = false;
  let ws: WebSocket | null = null;
  const connect = () => {
    if (stopped) return;
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/device/v1/socket`, { headers: { authorization: `Bearer ${phone.token}` } });
    ws = socket;
    const write = () => {
      // A thousand frames a turn while the socket buffers little, then yields to the event loop
      // (the kernel takes loopback writes at once, so the buffer alone would never stop the loop).
      for (let i = 0; i < 1000 && !stopped && socket.readyState === WebSocket.OPEN && socket.bufferedAmount < 256 * 1024; i++) {
        socket.send(`{"type":"heartbeat","ref":"f${stats.framesSent++}","defaultSmsApp":true}`);
      }
      if (!stopped && socket.readyState === WebSocket.OPEN) setImmediate(write);
    };
    socket.on('open', write);
    socket.on('message', (data) => {
      if (String(data).includes('"rate_limited"')) stats.rateLimited++;
    });
    socket.on('error', () => undefined);
    socket.on('close', (code) => {
      if (code === 4029) stats.closedForFlooding++;
      setTimeout(connect, 100);
    });
  };
  connect();
  return {
    stop() {
      stopped = true;
      ws?.terminate();
      return stats;
    },
  };
}

async function startNoise(target: Target, seconds: number, connections: number): Promise<Noise> {
  const [noisy] = await target.tenants(1);
  const [group] = await target.phoneGroups(1, 1);
  const sender = runLoad({
    label: 'noisy sender',
    url: `${target.url}/v1/messages`,
    method: 'POST',
    connections,
    seconds,
    body: sendBody(),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${noisy!.key}` },
  });
  const anonymous = runLoad({ label: 'anonymous flood', url: `${target.url}/openapi.json`, method: 'GET', connections, seconds });
  const phone = floodFrames(target.url, group!.phones[0]!);
  return {
    async stop() {
      const [s, a] = await Promise.all([sender, anonymous]);
      return { sender: s, anonymous: a, phone: phone.stop() };
    },
  };
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
    'Reports the well-behaved figures with noise as a ratio to alone (goal >= 0.8), and what the noise got.',
  async run({ target, settings }) {
    const connections = Math.max(...settings.sweep);
    const seconds = settings.seconds;
    const goodTenants = await target.tenants(Math.max(2, Math.ceil((2 * seconds * 30_000) / 100_000) + 1));
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
