import { openEventStream, type AppStreamEvent, type OpenedStream } from './android-app-events.js';

/**
 * An emulator of SMS Gateway for Android in private-server mode, written from
 * ../shared/research/smsgate-mobile-protocol.md (not from the app's code): the headers it sends,
 * the dates it writes, how it registers, pulls, de-duplicates, sends, reports, cancels and reads
 * its event stream. `version` selects the behaviour of older releases: before 1.67.0 it ignores
 * `state` (it would send a `Cancelling` item) and MessageCancelled; before 1.39.1 it reads only
 * the legacy `message` text; before 1.53.1 it does not pull when its stream opens.
 */
export type AppMessageState = 'Pending' | 'Processed' | 'Sent' | 'Delivered' | 'Failed' | 'Cancelled';

export interface AppSimCard {
  slotIndex: number;
  simNumber?: number;
  phoneNumber?: string;
  carrierName?: string;
  iccid?: string;
}

/** An item of `GET /message` as the server sends it. */
export interface PulledMessage {
  id: string;
  message?: string;
  textMessage?: { text: string };
  phoneNumbers: string[];
  simNumber?: number;
  withDeliveryReport?: boolean;
  isEncrypted?: boolean;
  priority?: number;
  validUntil?: string;
  createdAt?: string;
  state?: string;
}

/** A message in the phone's own database. */
export interface LocalMessage {
  id: string;
  text: string | undefined;
  phoneNumber: string;
  simNumber?: number;
  priority: number;
  validUntil?: string;
  state: AppMessageState;
  error?: string;
  states: Partial<Record<AppMessageState, string>>;
}

export interface AndroidAppOptions {
  version?: string;
  name?: string;
  simCards?: AppSimCard[];
  /** The phone's UTC offset in minutes (dates it writes use it). */
  utcOffsetMinutes?: number;
  /** Android < 7: a negative offset is written `+-5:00`. */
  oldAndroid?: boolean;
  /**
   * Send what it pulls at once (Processed, Sent, then Delivered, or `outcome`'s answer), the way
   * a phone with no send delay does; off: the test moves each message itself.
   */
  autopilot?: boolean;
  outcome?: (m: LocalMessage) => { state: 'Delivered' | 'Sent' } | { state: 'Failed'; error: string };
  /** Does not pull when told (MessageEnqueued): the test pulls itself. */
  deaf?: boolean;
}

const redact = (v: string | undefined) => (v === undefined ? undefined : v.length <= 4 ? '****' : '*'.repeat(v.length - 4) + v.slice(-4));
const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

export class AndroidApp {
  readonly version: string;
  readonly userAgent: string;
  readonly local = new Map<string, LocalMessage>();
  /** Every event its stream delivered, in order. */
  readonly events: AppStreamEvent[] = [];
  keepalives = 0;
  /** Every PATCH /message it made, with the server's status. */
  readonly reports: { body: unknown; status: number }[] = [];
  pulls = 0;
  id?: string;
  token?: string;
  login?: string;
  private stream: OpenedStream | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    readonly serverUrl: string,
    readonly opts: AndroidAppOptions = {},
  ) {
    this.version = opts.version ?? '1.68.0';
    this.userAgent = `me.capcom.smsgateway/${this.version}`;
  }

  get base(): string {
    return `${this.serverUrl}/mobile/v1`;
  }

  private atLeast(v: string): boolean {
    const a = this.version.split('.').map(Number);
    const b = v.split('.').map(Number);
    for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
    return true;
  }

  /** `yyyy-MM-dd'T'HH:mm:ss.SSSXXX` in the phone's zone, malformed as old Androids write it. */
  formatDate(at: Date): string {
    const offset = this.opts.utcOffsetMinutes ?? 0;
    const local = new Date(at.getTime() + offset * 60_000);
    const date = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}.${pad(local.getUTCMilliseconds(), 3)}`;
    if (offset === 0) return `${date}Z`;
    const h = Math.trunc(Math.abs(offset) / 60);
    const m = Math.abs(offset) % 60;
    if (this.opts.oldAndroid && offset < 0) return `${date}+-${h}:${pad(m)}`;
    return `${date}${offset < 0 ? '-' : '+'}${pad(h)}:${pad(m)}`;
  }

  /** A call as the app makes it: its User-Agent, Accept, JSON body and Bearer token. */
  async call(
    method: string,
    path: string,
    body?: unknown,
    authorization: string | null | undefined = this.token ? `Bearer ${this.token}` : undefined,
  ): Promise<{ status: number; body: any; contentType: string | null; text: string }> {
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json' };
    if (authorization) headers.authorization = authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, contentType: res.headers.get('content-type'), text };
  }

  private simCards(): AppSimCard[] {
    return (this.opts.simCards ?? [{ slotIndex: 0, carrierName: 'Orange MG', phoneNumber: '+261320000001' }]).map((s) => ({
      slotIndex: s.slotIndex,
      simNumber: s.slotIndex + 1,
      ...(s.phoneNumber ? { phoneNumber: redact(s.phoneNumber) } : {}),
      ...(s.carrierName ? { carrierName: redact(s.carrierName) } : {}),
      ...(s.iccid ? { iccid: redact(s.iccid) } : {}),
    }));
  }

  /** "Sign up" with the private token (`Bearer`) or "Sign in by code" (`Code`). */
  async register(code: string, scheme: 'Bearer' | 'Code' = 'Bearer') {
    const res = await this.call('POST', '/device', { name: this.opts.name ?? 'samsung/a52qnsxx', simCards: this.simCards() }, `${scheme} ${code}`);
    if (res.status >= 200 && res.status < 300) {
      this.id = res.body.id;
      this.token = res.body.token;
      this.login = res.body.login;
    }
    return res;
  }

  /** A service start: PATCH /device, then (SSE_ONLY) the event stream, which pulls on open. */
  async start(): Promise<void> {
    const res = await this.call('PATCH', '/device', { id: this.id, simCards: this.simCards() });
    if (res.status !== 204 && res.status !== 200) throw new Error(`PATCH /device answered ${res.status}: ${res.text}`);
    await this.connect();
    if (!this.atLeast('1.53.1')) return;
    await this.pull();
  }

  /** Opens the event stream; its status (and content type) say whether the app counts it open. */
  async connect(): Promise<OpenedStream> {
    this.stream?.close();
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'text/event-stream' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const stream = await openEventStream(
      `${this.base}/events`,
      headers,
      (e) => this.onEvent(e),
      (text) => {
        if (text === 'keepalive') this.keepalives++;
      },
    );
    this.stream = stream.status === 200 ? stream : null;
    return stream;
  }

  disconnect(): void {
    this.stream?.close();
    this.stream = null;
  }

  /** Resolves when the server ends the open stream. */
  streamEnded(): Promise<void> {
    return this.stream?.ended ?? Promise.resolve();
  }

  private onEvent(e: AppStreamEvent): void {
    this.events.push(e);
    if (e.event === 'MessageEnqueued') {
      if (!this.opts.deaf) this.track(this.pull());
    } else if (e.event === 'MessageCancelled' && this.atLeast('1.67.0')) {
      const { messageId } = JSON.parse(e.data) as { messageId: string };
      const m = this.local.get(messageId);
      if (m?.state === 'Pending') this.track(this.cancel(m));
    }
  }

  private track(p: Promise<unknown>): void {
    const q = p.catch(() => undefined).finally(() => this.inFlight.delete(q));
    this.inFlight.add(q);
  }

  /** Waits for the pulls and reports its events started. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** `GET /message` and its handling, item by item (§5.2). */
  async pull(order: 'lifo' | 'fifo' = 'lifo'): Promise<PulledMessage[]> {
    this.pulls++;
    const res = await this.call('GET', `/message?order=${order}`);
    if (res.status !== 200) throw new Error(`GET /message answered ${res.status}: ${res.text}`);
    if (!Array.isArray(res.body)) throw new Error(`GET /message answered no list: ${res.text}`);
    const items = res.body as PulledMessage[];
    const fresh: LocalMessage[] = [];
    for (const item of items) {
      const state = this.atLeast('1.67.0') ? (item.state ?? 'Pending') : 'Pending';
      const known = this.local.get(item.id);
      if (state === 'Cancelling') {
        if (!known) await this.report({ id: item.id, state: 'Cancelled', phoneNumber: item.phoneNumbers[0]!, priority: 0, text: undefined, states: { Cancelled: this.formatDate(new Date()) } });
        else if (known.state === 'Pending') await this.cancel(known);
        continue;
      }
      if (state !== 'Pending') continue;
      if (known) {
        await this.report(known);
        continue;
      }
      const text = this.atLeast('1.39.1') ? (item.textMessage?.text ?? item.message) : item.message;
      const m: LocalMessage = {
        id: item.id,
        text,
        phoneNumber: item.phoneNumbers[0]!,
        simNumber: item.simNumber,
        priority: item.priority ?? 0,
        validUntil: item.validUntil,
        state: 'Pending',
        states: { Pending: this.formatDate(new Date()) },
      };
      this.local.set(m.id, m);
      fresh.push(m);
    }
    if (this.opts.autopilot) for (const m of fresh) await this.sendThrough(m);
    return items;
  }

  /** Sends a pulled message the way the app would, reporting each state change. */
  async sendThrough(m: LocalMessage): Promise<void> {
    if (m.state !== 'Pending') return;
    if (m.text === undefined) return this.move(m, 'Failed', "Can't send message: no text");
    if (m.validUntil && Date.parse(m.validUntil) < Date.now()) return this.move(m, 'Failed', 'TTL expired');
    const outcome = this.opts.outcome?.(m) ?? { state: 'Delivered' as const };
    await this.move(m, 'Processed');
    if (outcome.state === 'Failed') return this.move(m, 'Failed', outcome.error);
    await this.move(m, 'Sent');
    if (outcome.state === 'Delivered') await this.move(m, 'Delivered');
  }

  /** A state change on the phone, then its report. Failed is sticky, as on the phone. */
  async move(m: LocalMessage, state: AppMessageState, error?: string): Promise<void> {
    if (m.state === 'Failed') return;
    m.state = state;
    if (error !== undefined) m.error = error;
    m.states[state] ??= this.formatDate(new Date());
    await this.report(m);
  }

  async cancel(m: LocalMessage): Promise<void> {
    await this.move(m, 'Cancelled');
  }

  /** The report body of a message as the phone's report job writes it (§5.4). */
  reportBody(m: Pick<LocalMessage, 'id' | 'state' | 'phoneNumber' | 'error' | 'states'>): unknown[] {
    return [
      {
        id: m.id,
        state: m.state,
        recipients: [{ phoneNumber: m.phoneNumber, state: m.state, ...(m.error !== undefined ? { error: m.error } : {}) }],
        states: m.states,
      },
    ];
  }

  async report(m: Pick<LocalMessage, 'id' | 'state' | 'phoneNumber' | 'error' | 'states'> & Partial<LocalMessage>): Promise<number> {
    const body = this.reportBody(m);
    const res = await this.call('PATCH', '/message', body);
    this.reports.push({ body, status: res.status });
    return res.status;
  }
}
