import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { PendingFrames, type PendingFrame } from './pending-frames.js';
import { SeenJobs } from './seen-jobs.js';
import { pairDevice } from './pair.js';
import {
  CLOSE_REPLACED,
  CLOSE_REVOKED,
  DeviceProtocolError,
  SOCKET_PATH,
  type ClaimAck,
  type Heartbeat,
  type HeartbeatAck,
  type IncomingAck,
  type IncomingSms,
  type Job,
  type PairRequest,
  type PairResult,
  type ServerFrame,
  type StatusAck,
  type StatusReport,
} from './protocol.js';

export interface DeviceClientOptions {
  /** The server's base URL, e.g. https://sms.example.com (http → ws, https → wss). */
  baseUrl: string;
  /** The device token from pairing (`hfd_…`). */
  token: string;
  /** New jobs, each messageId at most once per client (pushed, re-sent on reconnect, or claimed). */
  onJobs?: (jobs: Job[]) => void;
  /** The server took these jobs back (not acknowledged `sending` in time): do not send them. */
  onWithdrawn?: (messageIds: string[]) => void;
  /** The device was revoked: the client has stopped and will not reconnect. */
  onRevoked?: (reason: string) => void;
  onConnectionChange?: (connected: boolean) => void;
  /** A frame not acknowledged within this time is sent again with the same ref. Default 10 s. */
  ackTimeoutMs?: number;
  /** Reconnect delay: exponential from minMs to maxMs, with jitter. Default 500 ms to 30 s. */
  reconnect?: { minMs: number; maxMs: number };
  /**
   * Delay before sending again a frame answered `internal_error`: exponential from minMs to
   * maxMs, with jitter. Default 1 s to 30 s.
   */
  retry?: { minMs: number; maxMs: number };
  /** The most unreported jobs the server may push to this phone (1..100, default 100). */
  maxJobs?: number;
}

export interface DeviceClientStats {
  /** Sockets opened (the first connect included). */
  connects: number;
  reconnects: number;
  /** Frames sent again after their ack timed out. */
  resends: number;
  /** Jobs the server sent again that this client had already delivered (dropped). */
  duplicateJobs: number;
  /** Frames sent again after an `internal_error` answer. */
  retries: number;
}

type State = 'idle' | 'connecting' | 'open' | 'waiting' | 'closed' | 'revoked' | 'replaced';

const DEFAULT_ACK_TIMEOUT_MS = 10_000;
const DEFAULT_RECONNECT = { minMs: 500, maxMs: 30_000 };
const DEFAULT_RETRY = { minMs: 1000, maxMs: 30_000 };

/**
 * Answers that say "not now" rather than "never": the frame is kept and sent again, same ref and
 * content, until another answer comes. Every other error code is final for its frame.
 */
/** Answers that mean "not now": the frame is sent again later (rate_limited after the server's retryAfterMs). */
const TRANSIENT_CODES = new Set(['internal_error', 'service_unavailable', 'rate_limited']);

/** A delay growing from minMs to maxMs with the attempt, each between half and all of its ceiling. */
export function backoffDelay(range: { minMs: number; maxMs: number }, attempt: number, random = Math.random): number {
  const ceiling = Math.min(range.maxMs, range.minMs * 2 ** Math.min(attempt, 30));
  return ceiling / 2 + random() * (ceiling / 2);
}

/**
 * One phone's connection to Hafatra over /device/v1/socket. Every call resolves with the
 * server's ack or rejects with a DeviceProtocolError; frames are kept until acknowledged and
 * sent again after an ack timeout or a reconnect (at-least-once: the server dedupes).
 */
export class DeviceClient {
  static pair(baseUrl: string, request: PairRequest): Promise<PairResult> {
    return pairDevice(baseUrl, request);
  }

  readonly stats: DeviceClientStats = { connects: 0, reconnects: 0, resends: 0, duplicateJobs: 0, retries: 0 };
  private state: State = 'idle';
  private ws: WebSocket | null = null;
  private readonly pending = new PendingFrames();
  private readonly seen = new SeenJobs();
  private readonly refPrefix = randomBytes(3).toString('hex');
  private refSeq = 0;
  private attempt = 0;
  private lastReceivedAt = 0;
  private lastError = '';
  private reconnectTimer: NodeJS.Timeout | null = null;
  private connectWaiter: { resolve(): void; reject(err: Error): void } | null = null;
  private closedWaiters: (() => void)[] = [];
  private readonly ackTimeoutMs: number;
  private readonly backoff: { minMs: number; maxMs: number };
  private readonly retry: { minMs: number; maxMs: number };

  constructor(private readonly opts: DeviceClientOptions) {
    this.ackTimeoutMs = opts.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
    this.backoff = opts.reconnect ?? DEFAULT_RECONNECT;
    this.retry = opts.retry ?? DEFAULT_RETRY;
    if (opts.maxJobs !== undefined && !(Number.isInteger(opts.maxJobs) && opts.maxJobs >= 1 && opts.maxJobs <= 100)) {
      throw new RangeError('maxJobs must be an integer from 1 to 100');
    }
  }

  get connected(): boolean {
    return this.state === 'open';
  }

  /** Frames sent or queued and not yet acknowledged. */
  get unacknowledged(): number {
    return this.pending.size;
  }

  /**
   * Resolves once the socket is open; rejects if the token is refused (401), if close() is called
   * first, or (code `unreachable`) when `timeoutMs` passes without a connection: the client
   * then keeps trying until close().
   */
  connect(timeoutMs?: number): Promise<void> {
    if (this.state === 'open') return Promise.resolve();
    if (this.isStopped()) return Promise.reject(new DeviceProtocolError(this.state, `client is ${this.state}`));
    const opened = new Promise<void>((resolve, reject) => {
      this.connectWaiter = { resolve, reject };
    });
    if (this.state === 'idle') this.open();
    if (timeoutMs === undefined) return opened;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeviceProtocolError('unreachable', `no connection to ${this.opts.baseUrl} within ${timeoutMs} ms${this.lastError ? `: ${this.lastError}` : ''}`)), timeoutMs);
    });
    return Promise.race([opened, timeout]).finally(() => clearTimeout(timer));
  }

  heartbeat(heartbeat: Heartbeat = {}): Promise<HeartbeatAck> {
    return this.request<HeartbeatAck>('heartbeat', { sentAt: new Date().toISOString(), ...heartbeat });
  }

  async claim(max = 10): Promise<ClaimAck> {
    const ack = await this.request<ClaimAck>('claim', { max });
    return { ...ack, jobs: this.seen.fresh(ack.jobs, this.stats) };
  }

  reportStatus(report: StatusReport): Promise<StatusAck> {
    return this.request<StatusAck>('status', { at: new Date().toISOString(), ...report });
  }

  sendIncoming(sms: IncomingSms): Promise<IncomingAck> {
    return this.request<IncomingAck>('incoming', { ...sms });
  }

  /** Stops for good: no reconnect; frames still waiting for an ack reject with code `closed`. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const ws = this.ws;
    this.stop('closed', new DeviceProtocolError('closed', 'the client was closed before the server answered'));
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    const gone = new Promise<void>((resolve) => this.closedWaiters.push(resolve));
    if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'client closed');
    else ws.terminate();
    const force = setTimeout(() => ws.terminate(), 1000);
    await gone;
    clearTimeout(force);
  }

  private request<T>(type: string, body: Record<string, unknown>): Promise<T> {
    if (this.isStopped()) return Promise.reject(new DeviceProtocolError(this.state, `client is ${this.state}`));
    const ref = `${this.refPrefix}-${(++this.refSeq).toString(36)}`;
    return new Promise<T>((resolve, reject) => {
      const frame: PendingFrame = {
        ref,
        text: JSON.stringify({ ...body, type, ref }),
        attempts: 0,
        failures: 0,
        retrying: false,
        sentAt: 0,
        timer: null,
        resolve: resolve as (payload: Record<string, unknown>) => void,
        reject,
      };
      this.pending.add(frame);
      if (this.state === 'open') this.transmit(frame);
    });
  }

  private transmit(frame: PendingFrame): void {
    this.pending.stopTimer(frame);
    frame.attempts += 1;
    frame.sentAt = Date.now();
    this.ws!.send(frame.text);
    frame.timer = setTimeout(() => this.onAckTimeout(frame), this.ackTimeoutMs);
  }

  private onAckTimeout(frame: PendingFrame): void {
    frame.timer = null;
    if (this.state !== 'open' || this.pending.get(frame.ref) !== frame) return; // sent again on reconnect, or settled
    // Silence on the socket for two timeouts: it is most likely dead without a close (lost
    // network); dropping it reconnects, and every pending frame goes out on the new socket.
    if (frame.attempts >= 2 && Date.now() - this.lastReceivedAt > 2 * this.ackTimeoutMs) {
      this.ws!.terminate();
      return;
    }
    this.stats.resends += 1;
    this.transmit(frame);
  }

  private open(): void {
    this.state = 'connecting';
    const query = this.opts.maxJobs === undefined ? '' : `?maxJobs=${this.opts.maxJobs}`;
    const url = this.opts.baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws') + SOCKET_PATH + query;
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${this.opts.token}` }, perMessageDeflate: false, handshakeTimeout: 10_000 });
    this.ws = ws;
    let refusedStatus = 0;
    ws.on('unexpected-response', (_req, res) => {
      refusedStatus = res.statusCode ?? 0;
      res.resume();
      ws.terminate();
    });
    ws.on('open', () => this.onOpen());
    ws.on('message', (data) => this.onMessage(String(data)));
    ws.on('ping', () => {
      this.lastReceivedAt = Date.now();
    });
    ws.on('error', (err) => {
      this.lastError = err.message;
    }); // a close event follows: reconnecting is decided there
    ws.on('close', (code, reason) => this.onClose(ws, code, reason.toString(), refusedStatus));
  }

  private onOpen(): void {
    if (this.state !== 'connecting') return;
    this.state = 'open';
    this.attempt = 0;
    this.lastReceivedAt = Date.now();
    this.stats.connects += 1;
    if (this.stats.connects > 1) this.stats.reconnects += 1;
    // Pending frames first: a frame the callback sends is transmitted once, by request().
    for (const frame of this.pending.all()) this.transmit(frame);
    this.opts.onConnectionChange?.(true);
    this.connectWaiter?.resolve();
    this.connectWaiter = null;
  }

  private onMessage(text: string): void {
    this.lastReceivedAt = Date.now();
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      return; // not ours to fix: the server sends JSON
    }
    if (frame.type === 'jobs') this.deliver(frame.jobs);
    else if (frame.type === 'ack') this.onAck(frame);
    else if (frame.type === 'error') this.onError(frame);
    else if (frame.type === 'revoked') this.onRevokedFrame(frame.reason);
    else if (frame.type === 'withdrawn') this.opts.onWithdrawn?.(frame.messageIds);
  }

  private onAck(frame: { ref: string; [field: string]: unknown }): void {
    const { type: _type, ref, ...payload } = frame;
    const pending = this.pending.take(ref);
    if (pending) pending.resolve(payload);
    // A late ack of a claim already answered by its resend still carries claimed jobs: keep them.
    else if (Array.isArray(payload.jobs)) this.deliver(payload.jobs as Job[]);
  }

  private onError(frame: { ref: string | null; code: string; message: string; retryAfterMs?: number }): void {
    if (frame.ref === null) return;
    const pending = this.pending.get(frame.ref);
    if (!pending) return;
    if (TRANSIENT_CODES.has(frame.code)) return this.retryLater(pending, frame.retryAfterMs);
    this.pending.take(frame.ref)!.reject(new DeviceProtocolError(frame.code, frame.message));
  }

  /**
   * The server could not answer now (its database unreachable, say): the frame stays pending and
   * goes out again after a backoff, or at once on the next socket should this one close. A
   * status report or a received SMS is never dropped for a fault of the server's.
   */
  private retryLater(frame: PendingFrame, atLeastMs = 0): void {
    if (frame.retrying) return; // a second answer to the same try (an ack-timeout resend crossed it)
    this.pending.stopTimer(frame);
    frame.retrying = true;
    frame.failures += 1;
    frame.timer = setTimeout(
      () => {
        frame.timer = null;
        frame.retrying = false;
        if (this.state !== 'open' || this.pending.get(frame.ref) !== frame) return; // sent again on reconnect
        this.stats.retries += 1;
        this.transmit(frame);
      },
      Math.max(atLeastMs, backoffDelay(this.retry, frame.failures - 1)),
    );
  }

  private deliver(jobs: Job[]): void {
    const fresh = this.seen.fresh(jobs, this.stats);
    if (fresh.length > 0) this.opts.onJobs?.(fresh);
  }

  private onRevokedFrame(reason: string): void {
    if (this.isStopped()) return;
    this.stop('revoked', new DeviceProtocolError('revoked', `device revoked: ${reason}`));
    this.opts.onRevoked?.(reason);
  }

  private onClose(ws: WebSocket, code: number, reason: string, refusedStatus: number): void {
    if (ws !== this.ws) return;
    this.ws = null;
    const wasOpen = this.state === 'open';
    this.pending.stopTimers();
    if (wasOpen) this.opts.onConnectionChange?.(false);
    for (const resolve of this.closedWaiters.splice(0)) resolve();
    if (this.isStopped()) return;
    if (code === CLOSE_REVOKED) return this.onRevokedFrame(reason || 'revoked');
    if (code === CLOSE_REPLACED) {
      return this.stop('replaced', new DeviceProtocolError('replaced', 'another connection with this device token replaced this one'));
    }
    if (refusedStatus === 401) return this.onRefused();
    this.scheduleReconnect();
  }

  /** 401 on upgrade: a wrong token on the first connect, a revoked one later. */
  private onRefused(): void {
    if (this.stats.connects === 0) {
      this.stop('closed', new DeviceProtocolError('unauthorized', 'the server refused this device token'));
      return;
    }
    this.onRevokedFrame('device token refused');
  }

  private scheduleReconnect(): void {
    this.state = 'waiting';
    const delay = backoffDelay(this.backoff, this.attempt);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.state === 'waiting') this.open();
    }, delay);
  }

  private stop(state: 'closed' | 'revoked' | 'replaced', err: DeviceProtocolError): void {
    this.state = state;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.pending.rejectAll(err);
    this.connectWaiter?.reject(err);
    this.connectWaiter = null;
  }

  private isStopped(): boolean {
    return this.state === 'closed' || this.state === 'revoked' || this.state === 'replaced';
  }
}
