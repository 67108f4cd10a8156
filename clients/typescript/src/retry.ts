/** How the client retries: 429, 503, a 5xx that says Retry-After, and network errors; never another 4xx. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3; 0 turns retrying off. */
  maxRetries?: number;
  /** First backoff when the API gives no Retry-After (doubled each time, with jitter). Default 500 ms. */
  baseDelayMs?: number;
  /** Longest wait between two attempts. A Retry-After beyond it is not waited for: the error is thrown with its `retryAfterSeconds`. Default 30 s. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Whether an answer of this status may be tried again: the same request can succeed later. */
export function retryableStatus(status: number, retryAfterSeconds: number | null): boolean {
  return status === 429 || status === 503 || (status >= 500 && retryAfterSeconds !== null);
}

/** Retry-After in seconds (a number or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The wait before retry number `attempt` (1-based), or null when the answer's Retry-After is beyond the bound. */
export function retryDelayMs(attempt: number, retryAfterSeconds: number | null, options: Required<RetryOptions>, random = Math.random): number | null {
  if (retryAfterSeconds !== null) {
    const ms = retryAfterSeconds * 1000;
    return ms > options.maxDelayMs ? null : ms;
  }
  const exponential = options.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(options.maxDelayMs, exponential * (0.5 + random()));
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
