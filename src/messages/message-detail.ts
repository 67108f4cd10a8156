import { toMessage, type Message, type MessageStatus } from './message.js';
import type { MessageDetailRow, MessageEventJson } from './sql/select-message-details.js';

export type { MessageEventJson };

/**
 * The timeline as the API shows it: the creation entry, implied by the row unless it was stored
 * (a member's send, an automatic resend, an opted-out recipient's message created failed), then the stored ones. The creation entered the status
 * the first stored change left (`accepted` for a scheduled send), else the message's status.
 */
export function timelineOf(createdAt: string, status: MessageStatus, stored: MessageEventJson[]): MessageEventJson[] {
  if (stored.some((e) => e.fromStatus === null)) return stored;
  const created = stored[0]?.fromStatus ?? status;
  return [{ fromStatus: null, toStatus: created, source: 'api', code: null, deviceId: null, at: createdAt }, ...stored];
}

/** The body of GET /v1/messages/{id}: the Message's JSON with its timeline added. */
export function messageDetailJson(row: MessageDetailRow): string {
  const message: Message & { events?: MessageEventJson[] } = toMessage(row);
  message.events = timelineOf(message.createdAt, row.status, row.storedEvents);
  return JSON.stringify(message);
}
