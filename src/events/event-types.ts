export const EVENT_TYPES = [
  'message.queued',
  'message.claimed',
  'message.sending',
  'message.sent',
  'message.delivered',
  'message.failed',
  'message.expired',
  'message.cancelled',
  'message.unknown',
  'incoming.received',
  'mobile_money.detected',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface NewEvent {
  type: EventType;
  /** Built only when some endpoint subscribed to the type: most sends have no webhooks. */
  data: () => unknown;
}
