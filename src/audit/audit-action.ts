export interface AuditAction {
  /** A dotted verb: `key.created`, `message.cancelled`, `member.removed`. */
  action: string;
  /** The id of what was acted on, when there is one. */
  target?: string | null;
  /** What an owner reading the log needs to understand the action; never a secret. */
  detail?: Record<string, unknown>;
}
