// The noisy-neighbour scenario's noise, in its own process: an abusive tenant and an anonymous
// client are other machines' clients, not work of the well-behaved client's event loop. Run in
// the bench process, the noise's thousands of answers a second delayed the well-behaved
// client's own requests in its event loop, and the ratio measured the bench, not the server.
// Driven over IPC: one `start`; back, `started` as the noise begins and `result` when its run time is over.
import WebSocket from 'ws';
import { runLoad } from '../lib/load.js';
import { setQuiet } from '../lib/progress.js';
import { sendBody } from '../lib/recipients.js';
import type { NoiseEvent, NoiseResult, NoiseStart, PhoneFlood } from './noise-protocol.js';

/** One phone writing heartbeats as fast as its socket takes them, reconnecting whenever it is closed. */
function floodFrames(url: string, token: string): { stop(): PhoneFlood } {
  const stats: PhoneFlood = { framesSent: 0, rateLimited: 0, closedForFlooding: 0 };
  let stopped = false;
  let ws: WebSocket | null = null;
  const connect = () => {
    if (stopped) return;
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/device/v1/socket`, { headers: { authorization: `Bearer ${token}` } });
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

async function run(s: NoiseStart): Promise<NoiseResult> {
  const only = process.env.NOISE_ONLY;
  const none = { connections: 0, seconds: 0, okPerSecond: 0, ok: 0, non2xx: 0, errors: 0, p50: 0, p99: 0, statusCodes: {} };
  const idle = () => new Promise<typeof none>((resolve) => setTimeout(() => resolve(none), s.seconds * 1000));
  const sender =
    only && only !== 'sender'
      ? idle()
      : runLoad({
          label: 'noisy sender',
          url: `${s.url}/v1/messages`,
          method: 'POST',
          connections: s.connections,
          seconds: s.seconds,
          body: sendBody(),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${s.key}` },
        });
  const anonymous = only && only !== 'anonymous' ? idle() : runLoad({ label: 'anonymous flood', url: `${s.url}/openapi.json`, method: 'GET', connections: s.connections, seconds: s.seconds });
  process.send!({ type: 'started' } satisfies NoiseEvent);
  const phone = only && only !== 'phone' ? { stop: () => ({ framesSent: 0, rateLimited: 0, closedForFlooding: 0 }) } : floodFrames(s.url, s.phoneToken);
  const [senderResult, anonymousResult] = await Promise.all([sender, anonymous]);
  const cpu = process.cpuUsage();
  return { sender: senderResult, anonymous: anonymousResult, phone: phone.stop(), cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

setQuiet(true);
process.once('message', (s: NoiseStart) => {
  run(s).then(
    (result) => process.send!({ type: 'result', ...result } satisfies NoiseEvent, () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
