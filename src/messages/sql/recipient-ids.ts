/**
 * The ids of an organization's newest messages to a number, newest first, as a subquery over
 * message_recipients (migration 039): one index range, however many messages the organization
 * holds. Its arguments are the statement's parameters: the organization, the number (E.164) and
 * the most ids wanted.
 */
export function recipientIds(org: string, number: string, limit: string): string {
  return `SELECT message_id FROM message_recipients WHERE org_id = ${org} AND to_number = ${number} ORDER BY message_id DESC LIMIT ${limit}`;
}
