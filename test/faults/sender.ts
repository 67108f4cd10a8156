/**
 * A bulk-sending client as a careful integrator writes one: every POST /v1/messages carries an
 * Idempotency-Key, and a request whose answer was lost (connection cut, 5xx, 409 while the key
 * is in flight) is sent again with the same key and body until it gets its 202.
 */
export type Answer =
  | { kind: 'accepted'; at: number; batchId: string; ids: string[] }
  | { kind: 'refused'; at: number; status: number; code: string | undefined; errorShape: boolean }
  | { kind: 'lost'; at: number; error: string };

export interface SendRequest {
  key: string;
  to: string[];
  answers: Answer[];
}

const REQUEST_TIMEOUT_MS = 15_000;
const RETRY_CONCURRENCY = 8;
let nextNumber = 0;

/** The answer's body has the error shape {error: {code, message, requestId}}. */
function isErrorShape(body: unknown): body is { error: { code: string } } {
  const e = (body as { error?: Record<string, unknown> } | undefined)?.error;
  return typeof e?.code === 'string' && typeof e.message === 'string' && typeof e.requestId === 'string';
}

export class Sender {
  readonly requests: SendRequest[] = [];

  constructor(
    private readonly apiUrl: () => string,
    private readonly apiKey: string,
    private readonly tag: string,
  ) {}

  /** Ids of every message the API answered 202 for, with their batch. */
  accepted(): Map<string, string> {
    const out = new Map<string, string>();
    for (const r of this.requests) for (const a of r.answers) if (a.kind === 'accepted') for (const id of a.ids) out.set(id, a.batchId);
    return out;
  }

  /** Every answer that was neither a 202 nor lost on the network. */
  refusals(): Extract<Answer, { kind: 'refused' }>[] {
    return this.requests.flatMap((r) => r.answers.filter((a): a is Extract<Answer, { kind: 'refused' }> => a.kind === 'refused'));
  }

  /** Answers (of any kind) given at or after `since` (ms). */
  answersSince(since: number): Answer[] {
    return this.requests.flatMap((r) => r.answers.filter((a) => a.at >= since));
  }

  unanswered(): SendRequest[] {
    return this.requests.filter((r) => !r.answers.some((a) => a.kind === 'accepted'));
  }

  /** Sends `count` new requests of `size` recipients, `concurrency` at a time, until done or `stop()` says so. */
  async run(count: number, size: number, concurrency: number, stop: () => boolean = () => false): Promise<void> {
    let started = 0;
    const lane = async (): Promise<void> => {
      while (started < count && !stop()) {
        started += 1;
        const request: SendRequest = {
          key: `${this.tag}-${this.requests.length}`,
          to: Array.from({ length: size }, () => `+26134${String(nextNumber++ % 10_000_000).padStart(7, '0')}`),
          answers: [],
        };
        this.requests.push(request);
        // A client backs off when the service fails, rather than adding request after request.
        if ((await this.post(request)).kind !== 'accepted') await new Promise((r) => setTimeout(r, 200));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
  }

  /**
   * Sends every unanswered request again with its key, a few at a time, round after round, until
   * each has a 202 or the deadline passes. Each attempt waits for its answer (up to the request
   * timeout): a client that gave up early would itself leave keys in flight.
   */
  async retryUnanswered(deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while (this.unanswered().length > 0 && Date.now() <= deadline) {
      const pending = this.unanswered();
      const lane = async (): Promise<void> => {
        for (let request = pending.shift(); request; request = pending.shift()) await this.post(request);
      };
      await Promise.all(Array.from({ length: RETRY_CONCURRENCY }, lane));
      if (this.unanswered().length > 0) await new Promise((r) => setTimeout(r, 250));
    }
  }

  async post(request: SendRequest): Promise<Answer> {
    let answer: Answer;
    try {
      const res = await fetch(`${this.apiUrl()}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json', 'idempotency-key': request.key },
        body: JSON.stringify({ to: request.to, body: 'Salama' }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      if (res.status === 202) {
        const b = body as { batchId: string; messages: { id: string }[] };
        answer = { kind: 'accepted', at: Date.now(), batchId: b.batchId, ids: b.messages.map((m) => m.id) };
      } else {
        answer = { kind: 'refused', at: Date.now(), status: res.status, code: isErrorShape(body) ? body.error.code : undefined, errorShape: isErrorShape(body) };
      }
    } catch (err) {
      answer = { kind: 'lost', at: Date.now(), error: (err as Error).message };
    }
    request.answers.push(answer);
    return answer;
  }
}
