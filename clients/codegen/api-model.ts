import { flatten, withoutNull, type Schema } from './schema.js';

/**
 * What the clients are generated from: every /v1 operation of the OpenAPI document under a
 * stable name, and the resources named where the document leaves them anonymous. An operation
 * the table does not name stops the generator: a new route needs a name (and a look at the
 * clients) before they can follow it.
 */
const OPERATION_NAMES: Record<string, string> = {
  'post /v1/messages': 'sendMessages',
  'get /v1/messages': 'listMessages',
  'get /v1/messages/{messageId}': 'getMessage',
  'post /v1/messages/{messageId}/cancel': 'cancelMessage',
  'post /v1/messages/{messageId}/resend': 'resendMessage',
  'get /v1/devices': 'listDevices',
  'get /v1/devices/{deviceId}': 'getDevice',
  'patch /v1/devices/{deviceId}': 'updateDevice',
  'delete /v1/devices/{deviceId}': 'revokeDevice',
  'get /v1/devices/{deviceId}/send-windows': 'getDeviceSendWindows',
  'put /v1/devices/{deviceId}/send-windows': 'setDeviceSendWindows',
  'get /v1/incoming': 'listIncoming',
  'get /v1/incoming/{incomingId}': 'getIncoming',
  'get /v1/mobile-money': 'listMobileMoney',
  'get /v1/mobile-money/{eventId}': 'getMobileMoney',
  'get /v1/webhooks': 'listWebhookEndpoints',
  'post /v1/webhooks': 'createWebhookEndpoint',
  'get /v1/webhooks/{endpointId}': 'getWebhookEndpoint',
  'patch /v1/webhooks/{endpointId}': 'updateWebhookEndpoint',
  'delete /v1/webhooks/{endpointId}': 'deleteWebhookEndpoint',
  'get /v1/webhooks/{endpointId}/deliveries': 'listWebhookDeliveries',
  'post /v1/webhooks/{endpointId}/rotate-secret': 'rotateWebhookSecret',
  'post /v1/webhooks/{endpointId}/test': 'testWebhookEndpoint',
  'post /v1/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver': 'redeliverWebhookDelivery',
  'get /v1/opt-outs': 'listOptOuts',
  'post /v1/opt-outs': 'addOptOut',
  'delete /v1/opt-outs/{entry}': 'removeOptOut',
  'get /v1/send-windows': 'getSendWindows',
  'put /v1/send-windows': 'setSendWindows',
};

export interface Parameter {
  name: string;
  required: boolean;
  schema: Schema;
}

export interface Operation {
  name: string;
  method: string;
  path: string;
  summary: string;
  scope: string;
  pathParams: string[];
  query: Parameter[];
  /** The operation takes an Idempotency-Key header. */
  idempotent: boolean;
  body?: Schema;
  bodyRequired: boolean;
  /** The success status and its body (none for a 204). */
  status: number;
  response?: Schema;
  /** For a cursor-paged list: the array's property. */
  pageItems?: string;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
}
interface OperationObject {
  summary: string;
  'x-scope': string;
  parameters: { name: string; in: string; required: boolean; schema: Schema }[];
  requestBody?: { required: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export function operations(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const name = OPERATION_NAMES[`${method} ${path}`];
      if (!name) throw new Error(`${method.toUpperCase()} ${path} has no name in clients/codegen/api-model.ts: name it and make the clients follow it`);
      const success = Object.keys(op.responses)
        .filter((s) => /^2\d\d$/.test(s))
        .sort()
        .reverse()[0]!;
      const response = op.responses[success]?.content?.['application/json']?.schema;
      const flat = response && flatten(response);
      const pageItems = flat?.properties && 'nextCursor' in flat.properties ? Object.keys(flat.properties).find((p) => flat.properties![p]!.type === 'array') : undefined;
      out.push({
        name,
        method,
        path,
        summary: op.summary,
        scope: op['x-scope'],
        pathParams: op.parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: op.parameters.filter((p) => p.in === 'query').map(({ name: n, required, schema }) => ({ name: n, required, schema })),
        idempotent: op.parameters.some((p) => p.in === 'header' && p.name === 'idempotency-key'),
        body: op.requestBody?.content['application/json']?.schema,
        bodyRequired: op.requestBody?.required ?? false,
        status: Number(success),
        response,
        pageItems,
      });
    }
  }
  const missing = Object.entries(OPERATION_NAMES).filter(([key]) => !out.some((o) => `${o.method} ${o.path}` === key));
  if (missing.length > 0) throw new Error(`operations named in clients/codegen/api-model.ts are gone from the document: ${missing.map(([k]) => k).join(', ')}`);
  return out;
}

const byName = (ops: Operation[], name: string): Operation => ops.find((o) => o.name === name)!;
const property = (schema: Schema | undefined, ...names: string[]): Schema => {
  let s: Schema | undefined = schema && flatten(schema);
  for (const n of names) {
    const next = n === '[]' ? s?.items : s?.properties?.[n];
    s = next && flatten(withoutNull(next).schema);
  }
  if (!s) throw new Error(`the document no longer has ${names.join('.')}: the clients' named types must follow`);
  return s;
};

/**
 * The resources of the spec, by name, taken from where the document first shows them. Any
 * schema of the same shape elsewhere is written as that name.
 */
export function namedSchemas(ops: Operation[]): [string, Schema][] {
  const res = (op: string) => byName(ops, op).response;
  const body = (op: string) => byName(ops, op).body;
  const query = (op: string, p: string) => byName(ops, op).query.find((q) => q.name === p)!.schema;
  return [
    ['MessageStatus', property(res('sendMessages'), 'messages', '[]', 'status')],
    ['WebhookEventType', property(body('createWebhookEndpoint'), 'eventTypes', '[]')],
    ['Message', property(res('sendMessages'), 'messages', '[]')],
    ['SendResult', res('sendMessages')!],
    ['MessageEvent', property(res('getMessage'), 'events', '[]')],
    ['MessageDetail', res('getMessage')!],
    ['SimCard', property(res('getDevice'), 'sims', '[]')],
    ['InboundCapability', property(res('getDevice'), 'inbound')],
    ['Device', res('getDevice')!],
    ['IncomingMessage', res('getIncoming')!],
    ['MobileMoneyClassification', query('listMobileMoney', 'classification')],
    ['MobileMoneyEvent', res('getMobileMoney')!],
    ['WebhookEndpoint', res('getWebhookEndpoint')!],
    ['CreatedWebhookEndpoint', res('createWebhookEndpoint')!],
    ['WebhookDelivery', property(res('listWebhookDeliveries'), 'deliveries', '[]')],
    ['OptOut', res('addOptOut')!],
    ['SendWindowRange', property(body('setSendWindows'), 'sendWindows', 'ranges', '[]')],
    ['SendWindows', property(body('setSendWindows'), 'sendWindows')],
  ];
}
