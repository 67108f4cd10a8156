/**
 * A message's statuses, and those it never leaves (the spec's terminal ones). A leaf with no
 * imports: the dashboard bundles it (its status filter, which messages can still change).
 */
export const MESSAGE_STATUSES = ['accepted', 'queued', 'claimed', 'sending', 'sent', 'delivered', 'failed', 'expired', 'cancelled', 'unknown'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
/** `sent` is not among them: a delivery report (or a failure) may still follow it. */
export const TERMINAL_STATUSES: ReadonlySet<MessageStatus> = new Set(['delivered', 'failed', 'expired', 'cancelled', 'unknown']);
