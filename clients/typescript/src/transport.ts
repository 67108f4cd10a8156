import { apiError, HafatraConnectionError } from './errors.js';
import { OPERATIONS, type OperationName, type OperationTypes } from './generated.js';
import { DEFAULT_RETRY, parseRetryAfter, retryableStatus, retryDelayMs, sleep, type RetryOptions } from './retry.js';

export interface TransportOptions extends RetryOptions {
  /** The server's address, e.g. https://sms.example.org (without /v1). */
  baseUrl: string;
  /** An organization API key (hfk_…). */
  apiKey: string;
  /** Deadline of one attempt. Default 30 s. */
  timeoutMs?: number;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Cancels the call, its retries and its waits. */
  signal?: AbortSignal;
  /** For a send: the Idempotency-Key. Default: one made for this call, kept across its retries. */
  idempotencyKey?: string;
}

type Args<N extends OperationName> = { path?: OperationTypes[N]['path']; query?: OperationTypes[N]['query']; body?: OperationTypes[N]['body'] } & CallOptions;

/** Whether a request that may have reached the server can be sent again without doing it twice. */
const safeToRepeat = (method: string, idempotent: boolean): boolean => idempotent || method !== 'POST';

function url<N extends OperationName>(baseUrl: string, name: N, args: Args<N>): string {
  const params = (args.path ?? {}) as Record<string, string>;
  const path = OPERATIONS[name].path.replace(/\{(\w+)\}/g, (_m, p: string) => encodeURIComponent(params[p] ?? ''));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries((args.query ?? {}) as Record<string, unknown>)) if (value !== undefined && value !== null) query.set(key, String(value));
  const search = query.toString();
  return `${baseUrl.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`;
}

/** One operation over HTTP: JSON in and out, typed errors, bounded retries honouring Retry-After. */
export async function call<N extends OperationName>(options: TransportOptions, name: N, args: Args<N>): Promise<OperationTypes[N]['response']> {
  const op = OPERATIONS[name];
  const retry = { ...DEFAULT_RETRY, ...options };
  const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' };
  if (args.body !== undefined) headers['content-type'] = 'application/json';
  // Made once, before the first attempt: every retry carries the same key, so the server sends once.
  if (op.idempotent) headers['idempotency-key'] = args.idempotencyKey ?? `sdk-${crypto.randomUUID()}`;
  const target = url(options.baseUrl, name, args);
  const body = args.body === undefined ? undefined : JSON.stringify(args.body);
  const doFetch = options.fetch ?? fetch;
  for (let attempt = 1; ; attempt++) {
    const signals = [AbortSignal.timeout(options.timeoutMs ?? 30_000), ...(args.signal ? [args.signal] : [])];
    let res: Response;
    try {
      res = await doFetch(target, { method: op.method, headers, body, signal: AbortSignal.any(signals) });
    } catch (cause) {
      if (args.signal?.aborted) throw args.signal.reason;
      const wait = attempt <= retry.maxRetries && safeToRepeat(op.method, op.idempotent) ? retryDelayMs(attempt, null, retry) : null;
      if (wait === null) throw new HafatraConnectionError(`${op.method} ${op.path}: ${(cause as Error)?.message ?? cause}`, { cause });
      await sleep(wait, args.signal);
      continue;
    }
    if (res.ok) {
      const text = await res.text();
      return (text ? JSON.parse(text) : undefined) as OperationTypes[N]['response'];
    }
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    const error = apiError(res.status, await res.json().catch(() => null), retryAfter);
    const wait = attempt <= retry.maxRetries && retryableStatus(res.status, retryAfter) ? retryDelayMs(attempt, retryAfter, retry) : null;
    if (wait === null) throw error;
    await sleep(wait, args.signal);
  }
}
