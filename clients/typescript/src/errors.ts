/** The error codes of the API (its `{error: {code}}`). */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'no_device'
  | 'invalid_transition'
  | 'no_session'
  | 'inbound_locked'
  | 'clock_skew'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal_error';

/** Anything the client throws. */
export class HafatraError extends Error {
  override name = 'HafatraError';
}

/**
 * The API answered with an error. `code`, `message` and `requestId` are the API's own (quote the
 * requestId when reporting a 500); `field` names the offending field of a 400 (`to[3]`,
 * `sendAt`, `limit`), when the API names one.
 */
export class HafatraApiError extends HafatraError {
  override name = 'HafatraApiError';
  readonly status: number;
  readonly code: ErrorCode | (string & {});
  readonly requestId: string;
  readonly field: string | null;
  /** Seconds the API asked to wait before trying again (Retry-After), when it said. */
  readonly retryAfterSeconds: number | null;

  constructor(status: number, code: string, message: string, requestId: string, retryAfterSeconds: number | null) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.retryAfterSeconds = retryAfterSeconds;
    // A 400 names its field first: "to[3]: must be …", "query.limit: must be …".
    this.field = code === 'invalid_request' ? (/^([A-Za-z_$][\w$.[\]]*): /.exec(message)?.[1] ?? null) : null;
  }
}

/** 400 invalid_request (and 413): the request is wrong; sending it again will not help. */
export class InvalidRequestError extends HafatraApiError {
  override name = 'InvalidRequestError';
}
/** 401: the API key is missing, wrong, revoked or expired. */
export class AuthenticationError extends HafatraApiError {
  override name = 'AuthenticationError';
}
/** 403: the API key lacks the scope the operation needs. */
export class PermissionError extends HafatraApiError {
  override name = 'PermissionError';
}
/** 404: no such resource in the key's organization. */
export class NotFoundError extends HafatraApiError {
  override name = 'NotFoundError';
}
/** 409: conflict (an Idempotency-Key reused for another request…), no_device, invalid_transition. */
export class ConflictError extends HafatraApiError {
  override name = 'ConflictError';
}
/** 429: the organization's daily limit or the key's request rate; `retryAfterSeconds` says when. */
export class RateLimitedError extends HafatraApiError {
  override name = 'RateLimitedError';
}
/** 5xx: the server failed; quote `requestId`. */
export class ServerError extends HafatraApiError {
  override name = 'ServerError';
}

/** No answer: the connection failed or the request timed out (after the client's retries). */
export class HafatraConnectionError extends HafatraError {
  override name = 'HafatraConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

const BY_STATUS: Record<number, typeof HafatraApiError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  413: InvalidRequestError,
  429: RateLimitedError,
};

/** The typed error of an API answer; a body that is not the API's error shape still gives one. */
export function apiError(status: number, body: unknown, retryAfterSeconds: number | null): HafatraApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; requestId?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : status >= 500 ? 'internal_error' : 'invalid_request';
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${status}`;
  const requestId = typeof error?.requestId === 'string' ? error.requestId : '';
  const Type = BY_STATUS[status] ?? (status >= 500 ? ServerError : HafatraApiError);
  return new Type(status, code, message, requestId, retryAfterSeconds);
}
