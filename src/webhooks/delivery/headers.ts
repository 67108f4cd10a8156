// Request headers of a webhook delivery; shared by the sender, the local
// listener and the docs so the names cannot drift apart.

export const SIGNATURE_HEADER = 'Hafatra-Signature';
export const EVENT_ID_HEADER = 'Hafatra-Event-Id';
export const EVENT_TYPE_HEADER = 'Hafatra-Event-Type';

export interface WebhookHeaderValues {
  signature: string;
  eventId: string;
  eventType: string;
  /** The service version, for `User-Agent: Hafatra/<version>`. */
  version: string;
}

export function webhookRequestHeaders(values: WebhookHeaderValues): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': `Hafatra/${values.version}`,
    [SIGNATURE_HEADER]: values.signature,
    [EVENT_ID_HEADER]: values.eventId,
    [EVENT_TYPE_HEADER]: values.eventType,
  };
}
