import type * as T from './generated.js';
import { call, type CallOptions, type TransportOptions } from './transport.js';
import { waitForTerminal, type WaitOptions } from './wait.js';

export type HafatraOptions = TransportOptions;

type Page<K extends string, I> = { [key in K]: I[] } & { nextCursor: string | null };

/** Every item of a cursor-paged list, newest first, one page request at a time as the loop asks. */
async function* items<K extends string, I>(key: K, page: (before: string | undefined) => Promise<Page<K, I>>): AsyncGenerator<I, void, undefined> {
  let before: string | undefined;
  for (;;) {
    const current = await page(before);
    yield* current[key];
    if (current.nextCursor === null) return;
    before = current.nextCursor;
  }
}

/**
 * A client of Hafatra's /v1 API: one method per operation (its types generated from the
 * server's OpenAPI document), async iterators over every list, and waitForTerminal.
 */
export class Hafatra {
  readonly options: HafatraOptions;

  constructor(options: HafatraOptions) {
    if (!options.baseUrl || !options.apiKey) throw new TypeError('Hafatra: baseUrl and apiKey are required');
    this.options = options;
  }

  // Messages
  /** POST /v1/messages (messages:send). An Idempotency-Key is made for the call unless given, and kept across its retries. */
  sendMessages(body: T.SendMessagesRequest, opts: CallOptions = {}): Promise<T.SendResult> {
    return call(this.options, 'sendMessages', { body, ...opts });
  }
  listMessages(query: T.ListMessagesQuery = {}, opts: CallOptions = {}): Promise<T.ListMessagesResponse> {
    return call(this.options, 'listMessages', { query, ...opts });
  }
  iterMessages(query: Omit<T.ListMessagesQuery, 'before'> = {}, opts: CallOptions = {}): AsyncGenerator<T.Message, void, undefined> {
    return items('messages', (before) => this.listMessages({ ...query, before }, opts));
  }
  getMessage(messageId: string, opts: CallOptions = {}): Promise<T.MessageDetail> {
    return call(this.options, 'getMessage', { path: { messageId }, ...opts });
  }
  cancelMessage(messageId: string, opts: CallOptions = {}): Promise<T.Message> {
    return call(this.options, 'cancelMessage', { path: { messageId }, ...opts });
  }
  resendMessage(messageId: string, opts: CallOptions = {}): Promise<T.SendResult> {
    return call(this.options, 'resendMessage', { path: { messageId }, ...opts });
  }
  /** Polls GET /v1/messages/{id}, backing off, until the message reaches a terminal status; resolves with it. */
  waitForTerminal(messageId: string, opts: WaitOptions = {}): Promise<T.MessageDetail> {
    return waitForTerminal((signal) => this.getMessage(messageId, { signal }), opts);
  }

  // Phones
  listDevices(opts: CallOptions = {}): Promise<T.ListDevicesResponse> {
    return call(this.options, 'listDevices', opts);
  }
  getDevice(deviceId: string, opts: CallOptions = {}): Promise<T.Device> {
    return call(this.options, 'getDevice', { path: { deviceId }, ...opts });
  }
  updateDevice(deviceId: string, body: T.UpdateDeviceRequest, opts: CallOptions = {}): Promise<T.Device> {
    return call(this.options, 'updateDevice', { path: { deviceId }, body, ...opts });
  }
  revokeDevice(deviceId: string, opts: CallOptions = {}): Promise<T.Device> {
    return call(this.options, 'revokeDevice', { path: { deviceId }, ...opts });
  }
  getDeviceSendWindows(deviceId: string, opts: CallOptions = {}): Promise<T.GetDeviceSendWindowsResponse> {
    return call(this.options, 'getDeviceSendWindows', { path: { deviceId }, ...opts });
  }
  setDeviceSendWindows(deviceId: string, body: T.SetDeviceSendWindowsRequest, opts: CallOptions = {}): Promise<T.SetDeviceSendWindowsResponse> {
    return call(this.options, 'setDeviceSendWindows', { path: { deviceId }, body, ...opts });
  }
  getSendWindows(opts: CallOptions = {}): Promise<T.GetSendWindowsResponse> {
    return call(this.options, 'getSendWindows', opts);
  }
  setSendWindows(body: T.SetSendWindowsRequest, opts: CallOptions = {}): Promise<T.SetSendWindowsResponse> {
    return call(this.options, 'setSendWindows', { body, ...opts });
  }

  // Received SMS and mobile money
  listIncoming(query: T.ListIncomingQuery = {}, opts: CallOptions = {}): Promise<T.ListIncomingResponse> {
    return call(this.options, 'listIncoming', { query, ...opts });
  }
  iterIncoming(query: Omit<T.ListIncomingQuery, 'before'> = {}, opts: CallOptions = {}): AsyncGenerator<T.IncomingMessage, void, undefined> {
    return items('messages', (before) => this.listIncoming({ ...query, before }, opts));
  }
  getIncoming(incomingId: string, opts: CallOptions = {}): Promise<T.IncomingMessage> {
    return call(this.options, 'getIncoming', { path: { incomingId }, ...opts });
  }
  listMobileMoney(query: T.ListMobileMoneyQuery = {}, opts: CallOptions = {}): Promise<T.ListMobileMoneyResponse> {
    return call(this.options, 'listMobileMoney', { query, ...opts });
  }
  iterMobileMoney(query: Omit<T.ListMobileMoneyQuery, 'before'> = {}, opts: CallOptions = {}): AsyncGenerator<T.MobileMoneyEvent, void, undefined> {
    return items('events', (before) => this.listMobileMoney({ ...query, before }, opts));
  }
  getMobileMoney(eventId: string, opts: CallOptions = {}): Promise<T.MobileMoneyEvent> {
    return call(this.options, 'getMobileMoney', { path: { eventId }, ...opts });
  }

  // Opt-outs
  listOptOuts(query: T.ListOptOutsQuery = {}, opts: CallOptions = {}): Promise<T.ListOptOutsResponse> {
    return call(this.options, 'listOptOuts', { query, ...opts });
  }
  iterOptOuts(query: Omit<T.ListOptOutsQuery, 'before'> = {}, opts: CallOptions = {}): AsyncGenerator<T.OptOut, void, undefined> {
    return items('optOuts', (before) => this.listOptOuts({ ...query, before }, opts));
  }
  addOptOut(body: T.AddOptOutRequest, opts: CallOptions = {}): Promise<T.OptOut> {
    return call(this.options, 'addOptOut', { body, ...opts });
  }
  removeOptOut(entry: string, opts: CallOptions = {}): Promise<void> {
    return call(this.options, 'removeOptOut', { path: { entry }, ...opts });
  }

  // Webhooks
  listWebhookEndpoints(opts: CallOptions = {}): Promise<T.ListWebhookEndpointsResponse> {
    return call(this.options, 'listWebhookEndpoints', opts);
  }
  createWebhookEndpoint(body: T.CreateWebhookEndpointRequest, opts: CallOptions = {}): Promise<T.CreatedWebhookEndpoint> {
    return call(this.options, 'createWebhookEndpoint', { body, ...opts });
  }
  getWebhookEndpoint(endpointId: string, opts: CallOptions = {}): Promise<T.WebhookEndpoint> {
    return call(this.options, 'getWebhookEndpoint', { path: { endpointId }, ...opts });
  }
  updateWebhookEndpoint(endpointId: string, body: T.UpdateWebhookEndpointRequest, opts: CallOptions = {}): Promise<T.WebhookEndpoint> {
    return call(this.options, 'updateWebhookEndpoint', { path: { endpointId }, body, ...opts });
  }
  deleteWebhookEndpoint(endpointId: string, opts: CallOptions = {}): Promise<void> {
    return call(this.options, 'deleteWebhookEndpoint', { path: { endpointId }, ...opts });
  }
  listWebhookDeliveries(endpointId: string, query: T.ListWebhookDeliveriesQuery = {}, opts: CallOptions = {}): Promise<T.ListWebhookDeliveriesResponse> {
    return call(this.options, 'listWebhookDeliveries', { path: { endpointId }, query, ...opts });
  }
  iterWebhookDeliveries(endpointId: string, query: Omit<T.ListWebhookDeliveriesQuery, 'before'> = {}, opts: CallOptions = {}): AsyncGenerator<T.WebhookDelivery, void, undefined> {
    return items('deliveries', (before) => this.listWebhookDeliveries(endpointId, { ...query, before }, opts));
  }
  rotateWebhookSecret(endpointId: string, opts: CallOptions = {}): Promise<T.CreatedWebhookEndpoint> {
    return call(this.options, 'rotateWebhookSecret', { path: { endpointId }, ...opts });
  }
  testWebhookEndpoint(endpointId: string, opts: CallOptions = {}): Promise<T.TestWebhookEndpointResponse> {
    return call(this.options, 'testWebhookEndpoint', { path: { endpointId }, ...opts });
  }
  redeliverWebhookDelivery(endpointId: string, deliveryId: string, opts: CallOptions = {}): Promise<T.RedeliverWebhookDeliveryResponse> {
    return call(this.options, 'redeliverWebhookDelivery', { path: { endpointId, deliveryId }, ...opts });
  }
}

/**
 * Fails the typecheck when the generated operations hold one the client has no method for: a
 * route added to the server must be followed here (npm run clients:generate, then a method).
 */
type Unfollowed = Exclude<T.OperationName, keyof Hafatra>;
export const everyOperationFollowed: [Unfollowed] extends [never] ? true : Unfollowed = true;
