import { UsageError, printObject, printRows, type Command, type CommandArgs } from '../command.js';
import { orgOf, orgOption } from '../org-option.js';
import { recordSystemAudit } from '../../audit/sql/record-system-audit.js';
import type { AppContext } from '../../context/app-context.js';
import { HafatraError } from '../../errors/errors.js';
import { sendMessages } from '../../sending/send-messages.js';
import { cancelMessage } from '../../sending/cancel-message.js';
import { messageDetailJson } from '../../messages/message-detail.js';
import { selectMessageDetails } from '../../messages/sql/select-message-details.js';
import { sendBodyFrom, idempotencyKeyFrom } from './message-send-body.js';

const ROW_COLUMNS = ['id', 'to', 'status', 'failureCode', 'sendAt'];
const EVENT_COLUMNS = ['at', 'fromStatus', 'toStatus', 'source', 'code', 'deviceId'];

/** `message get|cancel ID [--org]`: the id, checked before the services start, and the organization. */
async function messageTarget(args: CommandArgs, services: () => Promise<AppContext>) {
  const id = args.positionals[0];
  if (!id) throw new UsageError('name the message id (msg_…)');
  const ctx = await services();
  return { id, ctx, org: await orgOf(ctx, args) };
}

/**
 * The operator on the server sends as a member of the organization would from the dashboard:
 * the same sendMessages and cancelMessage as the API, timelines saying `member`, the audit log
 * saying `cli`. A refusal of the API (no_device, rate_limited, invalid_request…) is a
 * HafatraError, which the CLI prints with its code and exits 1 on (src/cli/main.ts).
 */
export const messageCommands: Command[] = [
  {
    path: ['message', 'send'],
    summary: 'Send an SMS to one or many recipients, as POST /v1/messages does',
    usage:
      'hafatra message send --to NUMBER [--to NUMBER …|--to N,N] --body TEXT [--org default] [--device ID [--sim N]] [--priority normal|high] [--send-at ISO-DATE-TIME] [--valid-for SECONDS] [--ignore-send-windows] [--auto-resend 0-5] [--idempotency-key K] [--json]',
    options: {
      ...orgOption,
      to: { type: 'string', multiple: true },
      body: { type: 'string' },
      device: { type: 'string' },
      sim: { type: 'string' },
      priority: { type: 'string' },
      'send-at': { type: 'string' },
      'valid-for': { type: 'string' },
      'ignore-send-windows': { type: 'boolean' },
      'auto-resend': { type: 'string' },
      'idempotency-key': { type: 'string' },
    },
    async run(args, io, services) {
      const body = sendBodyFrom(args);
      const idempotencyKey = idempotencyKeyFrom(args);
      const ctx = await services();
      const org = await orgOf(ctx, args);
      const result = await sendMessages(ctx, org.id, { ...body, byMember: true }, idempotencyKey);
      await recordSystemAudit(ctx.db, org.id, { action: 'messages.sent', target: result.batchId, detail: { messages: result.messages.length, by: 'cli' } });
      if (args.json) {
        io.out(JSON.stringify(result, null, 2));
        return 0;
      }
      io.out(`batch: ${result.batchId}`);
      printRows(io, false, result.messages, ROW_COLUMNS);
      return 0;
    },
  },
  {
    path: ['message', 'get'],
    summary: 'A message with its timeline, as GET /v1/messages/{id}',
    usage: 'hafatra message get ID [--org default] [--json]',
    options: orgOption,
    async run(args, io, services) {
      const { id, ctx, org } = await messageTarget(args, services);
      const [row] = await selectMessageDetails(ctx.db, [id]);
      // Another organization's message is not found, as on the API.
      if (!row || row.orgId !== org.id) throw new HafatraError('not_found', `no message ${id} in organization ${org.name}`);
      const { events, ...message } = JSON.parse(messageDetailJson(row)) as Record<string, unknown> & { events: Record<string, unknown>[] };
      if (args.json) {
        io.out(JSON.stringify({ ...message, events }, null, 2));
        return 0;
      }
      printObject(io, false, message);
      io.out('');
      printRows(io, false, events, EVENT_COLUMNS);
      return 0;
    },
  },
  {
    path: ['message', 'cancel'],
    summary: 'Cancel a message no phone has claimed yet (queued, or accepted until its sendAt)',
    usage: 'hafatra message cancel ID [--org default] [--json]',
    options: orgOption,
    async run(args, io, services) {
      const { id, ctx, org } = await messageTarget(args, services);
      const message = await cancelMessage(ctx, org.id, id, 'member');
      await recordSystemAudit(ctx.db, org.id, { action: 'message.cancelled', target: id, detail: { by: 'cli' } });
      if (args.json) printObject(io, true, message);
      else io.out(`${id} cancelled`);
      return 0;
    },
  },
];
