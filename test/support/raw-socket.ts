import { once } from 'node:events';
import WebSocket from 'ws';
import { afterAll, beforeAll } from 'vitest';
import { startPhoneTestApp, type PhoneTestApp } from './phones.js';

export type Frame = Record<string, unknown>;

/**
 * A phone socket without DeviceClient's manners: sends exactly the bytes a test gives it (resends,
 * garbage, binary), and keeps every frame the server sent and the close code.
 */
export class RawPhoneSocket {
  readonly frames: Frame[] = [];
  /** Text frames that were not JSON (never expected from the server). */
  readonly unparsed: string[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  closeCode: number | null = null;
  private wake: (() => void) | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, binary) => {
      const text = binary ? `<binary ${(data as Buffer).length} bytes>` : data.toString();
      try {
        this.frames.push(JSON.parse(text) as Frame);
      } catch {
        this.unparsed.push(text);
      }
      this.wake?.();
    });
    this.closed = once(ws, 'close').then(([code, reason]) => {
      this.closeCode = code as number;
      this.wake?.();
      return { code: code as number, reason: String(reason) };
    });
  }

  /** Resolves when `done` holds, checked on every frame and on close; rejects after timeoutMs. */
  until(done: () => boolean, timeoutMs = 10_000, what = 'a frame'): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.wake = null;
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.wake = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  /** Opens /device/v1/socket with this token (`query` e.g. `?maxJobs=3`); rejects when the upgrade is refused. */
  static async open(baseUrl: string, token: string, query = ''): Promise<RawPhoneSocket> {
    const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/device/v1/socket${query}`, {
      headers: { authorization: `Bearer ${token}` },
      perMessageDeflate: false,
      maxPayload: 64 * 1024 * 1024,
    });
    const socket = new RawPhoneSocket(ws);
    await once(ws, 'open');
    return socket;
  }

  send(frame: Frame | string | Buffer): void {
    this.ws.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
  }

  /** Every answer (ack or error) to this ref so far. */
  answers(ref: string | null): Frame[] {
    return this.frames.filter((f) => (f.type === 'ack' || f.type === 'error') && f.ref === ref);
  }

  /** Waits until `count` answers to this ref arrived; returns them. */
  async answered(ref: string | null, count = 1, timeoutMs = 10_000): Promise<Frame[]> {
    await this.until(() => this.answers(ref).length >= count, timeoutMs, `${count} answer(s) to ref ${ref}`);
    return this.answers(ref);
  }

  /** Sends a frame and waits for its (next) answer. */
  async request(frame: Frame): Promise<Frame> {
    const before = this.answers(frame.ref as string).length;
    this.send(frame);
    return (await this.answered(frame.ref as string, before + 1))[before]!;
  }

  /** Jobs pushed in `jobs` frames so far. */
  pushedJobs(): Frame[] {
    return this.frames.filter((f) => f.type === 'jobs').flatMap((f) => f.jobs as Frame[]);
  }

  async close(): Promise<void> {
    if (this.closeCode !== null) return;
    this.ws.close(1000);
    const force = setTimeout(() => this.ws.terminate(), 1000);
    await this.closed;
    clearTimeout(force);
  }
}

/** The HTTP answer to a socket upgrade the server refuses (rejects if it accepts it). */
export function upgradeRefusal(baseUrl: string, token: string, query = ''): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/device/v1/socket${query}`, { headers: { authorization: `Bearer ${token}` } });
    ws.on('open', () => {
      ws.terminate();
      reject(new Error('upgrade accepted'));
    });
    ws.on('error', () => {}); // the refusal arrives as unexpected-response
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
}

/**
 * A phone test app for the calling test file, started before its tests; every socket opened with
 * `open` is closed after them, then the app.
 */
export function rawSocketSuite() {
  const suite = {
    app: undefined as unknown as PhoneTestApp,
    sockets: [] as RawPhoneSocket[],
    async open(token: string, query = ''): Promise<RawPhoneSocket> {
      const socket = await RawPhoneSocket.open(suite.app.url, token, query);
      suite.sockets.push(socket);
      return socket;
    },
  };
  beforeAll(async () => {
    suite.app = await startPhoneTestApp();
  });
  afterAll(async () => {
    await Promise.all(suite.sockets.map((s) => s.close()));
    await suite.app.close();
  });
  return suite;
}
