/**
 * The one table of error codes: each code of the spec's enumeration with its HTTP status.
 * Every error a request can end in is a HafatraError built from this table; the HTTP layer maps
 * it to `{error: {code, message, requestId}}` in one place (src/http/reply.ts).
 */
export const errorStatus = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  no_device: 409,
  invalid_transition: 409,
  no_session: 409,
  inbound_locked: 409,
  clock_skew: 400,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  // The mobile API only (src/mobile-api/): an app call Hafatra has no use for.
  not_implemented: 501,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class HafatraError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, opts: { status?: number; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'HafatraError';
    this.code = code;
    this.status = opts.status ?? errorStatus[code];
    this.headers = opts.headers ?? {};
  }
}

export const isHafatraError = (e: unknown): e is HafatraError => e instanceof HafatraError;

export const errors = {
  invalid: (message: string) => new HafatraError('invalid_request', message),
  tooLarge: (limit: number) => new HafatraError('invalid_request', `request body exceeds ${limit} bytes`, { status: 413 }),
  unauthorized: (message = 'missing, invalid, revoked or expired API key') => new HafatraError('unauthorized', message, { headers: { 'www-authenticate': 'Bearer' } }),
  forbidden: (scope: string) => new HafatraError('forbidden', `this API key lacks the scope ${scope}`),
  /** A member's role does not allow the action. */
  roleTooLow: (needed: string) => new HafatraError('forbidden', `this needs the ${needed} role in the organization`),
  /** A signed-in browser's request that did not come from the dashboard's own pages. */
  crossSite: () => new HafatraError('forbidden', 'cross-site request refused'),
  /** An owner's powers stop at their organization: an account also in another one belongs to its person (docs/security.md). */
  accountOfAnotherOrganization: () =>
    new HafatraError(
      'forbidden',
      'this account is also a member of another organization: its password is changed by the person (signed in, under Account) or reset by the server operator (hafatra member reset-password)',
    ),
  /** An invitation for an address that has an account is accepted while signed in to it, never by typing its password into the link. */
  signInToJoin: () => new HafatraError('conflict', 'this address already has an account: sign in with it, then open this link again to join'),
  /** The signed-in member opened a link made for another address. */
  linkForAnotherAddress: () => new HafatraError('forbidden', 'this link is for another email address: sign out, then open it again'),
  signedOut: (message = 'sign in first') => new HafatraError('unauthorized', message),
  notFound: (what: string) => new HafatraError('not_found', `${what} not found`),
  conflict: (message: string) => new HafatraError('conflict', message),
  noDevice: (message = 'no phone in the organization can send') => new HafatraError('no_device', message),
  invalidTransition: (message: string) => new HafatraError('invalid_transition', message),
  unsupportedMediaType: () => new HafatraError('unsupported_media_type', 'request body must be sent as application/json'),
  rateLimited: (message: string, retryAfterSeconds: number) => new HafatraError('rate_limited', message, { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } }),
  notImplemented: (message: string) => new HafatraError('not_implemented', message),
  internal: () => new HafatraError('internal_error', 'unexpected failure; quote the requestId when reporting it'),
  /** Still 500 internal_error (the spec's code for any failure of ours), with a hint to retry soon. */
  storageUnavailable: () => new HafatraError('internal_error', 'storage temporarily unavailable; retry shortly', { headers: { 'retry-after': '1' } }),
};
