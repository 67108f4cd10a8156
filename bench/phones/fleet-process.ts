// The phone fleet, in its own process: many phones over /device/v1/socket with the `ws` client.
// Lean on purpose (one closure per phone, no per-phone timers) so 10,000 sockets fit in one
// process and the client does not become what is measured. Driven by the bench over IPC.
import WebSocket from 'ws';
import { chaosPhone, takeChaosBatch } from './chaos-phone.js';
import type { FleetEvent, FleetStart } from './protocol.js';
import type { PhoneCredential } from '../target/target.js';

const send = (e: FleetEvent) => process.send?.(e);
const nowMs = () => performance.timeOrigin + performance.now();
const sockets: WebSocket[] = [];
let refSeq = 0;
let jobsOut: Array<[string, number]> = [];
let deliveredOut: Array<[string, number]> = [];
let problems = 0;

function heartbeat(): string {
  return JSON.stringify({
    type: 'heartbeat',
    ref: `h${refSeq++}`,
    battery: { percent: 80, charging: true },
    networkType: 'wifi',
    uptimeSeconds: 3600,
    appVersion: 'bench',
    defaultSmsApp: false,
    sentAt: new Date().toISOString(),
  });
}

/** Each job: sending, then sent, then delivered, each sent once the previous one is acked. */
const NEXT: Record<string, string | undefined> = { sending: 'sent', sent: 'delivered' };

function work(ws: WebSocket): void {
  const pending = new Map<string, { messageId: string; status: string }>();
  const report = (messageId: string, status: string) => {
    const ref = `s${refSeq++}`;
    pending.set(ref, { messageId, status });
    ws.send(JSON.stringify({ type: 'status', ref, messageId, status }));
  };
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { type: string; ref?: string; jobs?: Array<{ messageId: string }>; code?: string; message?: string };
    if (frame.type === 'jobs' && frame.jobs) {
      const t = nowMs();
      for (const job of frame.jobs) {
        jobsOut.push([job.messageId, t]);
        report(job.messageId, 'sending');
      }
      return;
    }
    const sent = frame.ref ? pending.get(frame.ref) : undefined;
    if (!sent) return;
    pending.delete(frame.ref!);
    if (frame.type === 'error') {
      if (problems++ < 5) send({ type: 'problem', message: `${sent.status} of ${sent.messageId}: ${frame.code} ${frame.message}` });
      return;
    }
    const next = NEXT[sent.status];
    if (next) report(sent.messageId, next);
    else deliveredOut.push([sent.messageId, nowMs()]);
  });
}

/** A chaos phone (chaos-phone.ts): its role's trouble, on the strict protocol. */
function chaos(ws: WebSocket, start: FleetStart, index: number): void {
  const mute = () => {
    const at = sockets.indexOf(ws);
    if (at >= 0) sockets.splice(at, 1);
  };
  const problem = (message: string) => {
    if (problems++ < 5) send({ type: 'problem', message });
  };
  chaosPhone(ws, index, start.chaos!.roles[index]!, start.chaos!, { mute, problem, nextRef: () => `s${refSeq++}` });
}

function open(start: FleetStart, phone: PhoneCredential, index: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const ws = new WebSocket(start.socketUrl, { headers: { authorization: `Bearer ${phone.token}` }, perMessageDeflate: false });
    ws.once('open', () => {
      sockets.push(ws);
      ws.send(heartbeat());
      if (start.mode === 'work') work(ws);
      if (start.mode === 'chaos') chaos(ws, start, index);
      resolve(undefined);
    });
    ws.once('error', (err) => resolve(err.message));
    ws.once('unexpected-response', (_req, res) => resolve(`upgrade answered ${res.statusCode}`));
  });
}

async function run(start: FleetStart): Promise<void> {
  let connected = 0;
  let failed = 0;
  let firstError: string | undefined;
  for (let i = 0; i < start.phones.length; i += start.batch) {
    const results = await Promise.all(start.phones.slice(i, i + start.batch).map((p, k) => open(start, p, i + k)));
    for (const err of results) {
      if (err === undefined) connected += 1;
      else {
        failed += 1;
        firstError ??= err;
      }
    }
    send({ type: 'progress', connected, failed });
  }
  send({ type: 'ready', connected, failed, firstError });
  // Heartbeats spread over the interval, a slice of the fleet each tick, rather than one timer per phone.
  let cursor = 0;
  const ticks = 10;
  setInterval(() => {
    const slice = Math.ceil(sockets.length / ticks);
    for (let k = 0; k < slice && sockets.length > 0; k += 1) {
      const ws = sockets[cursor++ % sockets.length]!;
      if (ws.readyState === WebSocket.OPEN) ws.send(heartbeat());
    }
  }, start.heartbeatMs / ticks).unref();
  setInterval(flush, 50).unref();
}

function flush(): void {
  if (jobsOut.length > 0) send({ type: 'jobs', items: jobsOut });
  if (deliveredOut.length > 0) send({ type: 'delivered', items: deliveredOut });
  jobsOut = [];
  deliveredOut = [];
  const chaosBatch = takeChaosBatch();
  if (chaosBatch) send(chaosBatch);
}

process.on('message', (m: FleetStart | { type: 'stop' }) => {
  if (m.type === 'start') void run(m);
  if (m.type === 'stop') {
    flush();
    for (const ws of sockets) ws.terminate();
    setTimeout(() => process.exit(0), 50);
  }
});
