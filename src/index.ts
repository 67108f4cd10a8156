/**
 * The package's public API, for code that talks to a Hafatra server (`import … from 'hafatra'`).
 * The server itself runs from the `hafatra` command.
 */
export { verifyWebhookSignature, DEFAULT_SIGNATURE_TOLERANCE_SECONDS, type VerifyOptions } from './webhooks/delivery/signature.js';
export { SIGNATURE_HEADER, EVENT_ID_HEADER, EVENT_TYPE_HEADER } from './webhooks/delivery/headers.js';
export { EVENT_TYPES, type EventType } from './events/record-events.js';
export { DeviceClient, type DeviceClientOptions } from './phone/device-client.js';
export { DeviceProtocolError, type Job } from './phone/protocol.js';
