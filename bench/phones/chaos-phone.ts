// One phone of the fleet-chaos scenario, as strict as docs/device-protocol.md asks: jobs are sent
// one after another in the order received, each handed to "the radio" only once its `sending` is
// acknowledged; a job named in a `withdrawn` frame, or whose `sending` is refused, is dropped.
// Its role (protocol.ts) adds the trouble. Unlike the lean `work` phones, each has a timer per
// send: the chaos fleet is tens of phones, not thousands.
import type WebSocket from 'ws';
import type { ChaosBatch, ChaosSettings, PhoneRole } from './protocol.js';

const nowMs = () => performance.timeOrigin + performance.now();

let batch: ChaosBatch = emptyBatch();
function emptyBatch(): ChaosBatch {
  return { type: 'chaos', arrivals: [], radio: [], finals: [], stops: [], refused: 0, ackedAfterWithdrawn: [] };
}

/** What the chaos phones recorded since the last call, or nothing. */
export function takeChaosBatch(): ChaosBatch | undefined {
  const b = batch;
  if (b.arrivals.length + b.radio.length + b.finals.length + b.stops.length + b.refused + b.ackedAfterWithdrawn.length === 0) return undefined;
  batch = emptyBatch();
  return b;
}

export interface ChaosHooks {
  /** Stop this socket's heartbeats (a mute phone says nothing at all). */
  mute(): void;
  problem(message: string): void;
  nextRef(): string;
}

interface Frame {
  type: string;
  ref?: string;
  jobs?: Array<{ messageId: string }>;
  messageIds?: string[];
  code?: string;
  message?: string;
}

/** Android's side of a send: what the sent intent will say. */
function outcomeOf(role: PhoneRole, sends: number[], failedSoFar: { of: number }, t: number): { status: 'sent' | 'failed'; failureCode?: string } {
  if (role.role === 'limited') {
    const window = role.limitWindowMs ?? 60_000;
    while (sends.length > 0 && sends[0]! <= t - window) sends.shift();
    if (sends.length >= (role.limitParts ?? 30)) return { status: 'failed', failureCode: 'limit_exceeded' };
    sends.push(t);
  }
  if (role.role === 'failing') {
    // Exactly failShare of the jobs, spread evenly, so runs compare.
    const share = role.failShare ?? 0.5;
    const fail = Math.floor((failedSoFar.of + 1) * share) > Math.floor(failedSoFar.of * share);
    failedSoFar.of += 1;
    if (fail) return { status: 'failed', failureCode: 'no_service' };
  }
  return { status: 'sent' };
}

export function chaosPhone(ws: WebSocket, phone: number, role: PhoneRole, settings: ChaosSettings, hooks: ChaosHooks): void {
  const queue: string[] = [];
  /** Ids queued or in progress here: a job pushed twice is taken once. */
  const known = new Set<string>();
  const withdrawn = new Set<string>();
  const pending = new Map<string, { messageId: string; status: string }>();
  const sends: number[] = [];
  const failures = { of: 0 };
  let current: string | null = null;
  let firstJobAt: number | undefined;
  let silent = false;

  const report = (messageId: string, status: string, failureCode?: string) => {
    const ref = hooks.nextRef();
    pending.set(ref, { messageId, status });
    ws.send(JSON.stringify({ type: 'status', ref, messageId, status, ...(failureCode ? { failureCode } : {}) }));
  };

  const goSilent = () => {
    silent = true;
    batch.stops.push([phone, nowMs(), 'silent']);
    if (role.role === 'silent-close') ws.terminate();
    else hooks.mute();
  };

  // Between two sends, never with one on the air: a job whose `sending` was acked cannot be
  // moved (it may have left) and would end `unknown` ten minutes later, which is not what this
  // scenario measures.
  const next = () => {
    if (silent || current !== null) return;
    if (role.silentAfterMs !== undefined && firstJobAt !== undefined && nowMs() - firstJobAt >= role.silentAfterMs) return goSilent();
    const id = queue.shift();
    if (id === undefined) return;
    current = id;
    report(id, 'sending');
  };

  const done = (id: string) => {
    known.delete(id);
    if (current === id) current = null;
    next();
  };

  const onAck = (sent: { messageId: string; status: string }) => {
    const id = sent.messageId;
    const t = nowMs();
    if (sent.status === 'sending') {
      if (withdrawn.has(id)) {
        batch.ackedAfterWithdrawn.push([id, phone]);
        return done(id);
      }
      batch.radio.push([id, phone, t]);
      const outcome = outcomeOf(role, sends, failures, t);
      if (outcome.failureCode === 'limit_exceeded') {
        // Android refuses at once; the server withdraws what this phone still holds.
        batch.stops.push([phone, t, 'limit']);
        return report(id, 'failed', outcome.failureCode);
      }
      setTimeout(() => !silent && report(id, outcome.status, outcome.failureCode), settings.radioMs);
      return;
    }
    batch.finals.push([id, phone, t, sent.status as 'sent' | 'delivered' | 'failed']);
    if (sent.status === 'sent') report(id, 'delivered');
    if (sent.status !== 'delivered') done(id);
  };

  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Frame;
    const t = nowMs();
    // A mute phone's socket still receives jobs: recorded, as the moment they got stuck there.
    if (frame.type === 'jobs' && frame.jobs) for (const { messageId } of frame.jobs) batch.arrivals.push([messageId, phone, t]);
    if (silent) return;
    if (frame.type === 'jobs' && frame.jobs) {
      firstJobAt ??= t;
      for (const { messageId } of frame.jobs) {
        if (known.has(messageId)) continue;
        known.add(messageId);
        withdrawn.delete(messageId);
        queue.push(messageId);
      }
      return next();
    }
    if (frame.type === 'withdrawn' && frame.messageIds) {
      for (const id of frame.messageIds) {
        withdrawn.add(id);
        const at = queue.indexOf(id);
        if (at >= 0) queue.splice(at, 1);
        // The one whose `sending` is in flight is dropped when its refusal comes.
        if (id !== current) known.delete(id);
      }
      return;
    }
    const sent = frame.ref ? pending.get(frame.ref) : undefined;
    if (!sent) return;
    pending.delete(frame.ref!);
    if (frame.type === 'ack') return onAck(sent);
    if (sent.status === 'sending' && frame.code === 'invalid_transition') batch.refused += 1;
    else hooks.problem(`${sent.status} of ${sent.messageId}: ${frame.code} ${frame.message}`);
    if (sent.status !== 'delivered') done(sent.messageId);
  });
}
