export { Hafatra, type HafatraOptions } from './client.js';
export type { CallOptions } from './transport.js';
export type { RetryOptions } from './retry.js';
export {
  AuthenticationError,
  ConflictError,
  HafatraApiError,
  HafatraConnectionError,
  HafatraError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitedError,
  ServerError,
  type ErrorCode,
} from './errors.js';
export { TERMINAL_STATUSES, WaitTimeoutError, type WaitOptions } from './wait.js';
export { verifyWebhook, WebhookVerificationError, type MessageEventType, type VerifyOptions, type WebhookEvent } from './webhooks.js';
export * from './generated.js';
