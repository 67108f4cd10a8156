import { UsageError, type CommandArgs } from '../command.js';
import { compileValidator } from '../../schemas/validation.js';
import { validIdempotencyKey } from '../../http/request-headers.js';
import { SendMessagesBody } from '../../sending/schemas.js';

/** Each field of POST /v1/messages and the `hafatra message send` option that gives it. */
const OPTION_OF: Record<string, string> = {
  to: '--to',
  body: '--body',
  deviceId: '--device',
  simSubscriptionId: '--sim',
  priority: '--priority',
  autoResend: '--auto-resend',
  sendAt: '--send-at',
  validFor: '--valid-for',
  ignoreSendWindows: '--ignore-send-windows',
};

// The route's own schema; `coerce` reads "30" as the integer 30 exactly as it reads a query
// string, and leaves "thirty" a string for the schema to refuse naming the field.
const validator = compileValidator(SendMessagesBody, { coerce: true });

/** Every --to given, each possibly a comma list: one number is sent as a string, several as a list. */
function recipientsOf(args: CommandArgs): string | string[] {
  const given = args.values.to;
  const list = (Array.isArray(given) ? given : typeof given === 'string' ? [given] : [])
    .flatMap((v) => String(v).split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (list.length === 0) throw new UsageError('--to is required (a phone number; repeat --to or separate numbers with commas)');
  return list.length === 1 ? list[0]! : list;
}

/**
 * The request body of POST /v1/messages from the options, checked by the route's schema: a bad
 * field is a usage error that names it as the API's 400 does (`validFor: must be …`), after the
 * option that gave it. What the schema cannot check (a number that is not a phone number, the
 * daily limit, a phone to send) is the send's own answer.
 */
export function sendBodyFrom(args: CommandArgs): SendMessagesBody {
  const v = args.values;
  const to = recipientsOf(args);
  if (typeof v.body !== 'string') throw new UsageError('--body is required');
  if (v.sim !== undefined && v.device === undefined) throw new UsageError('--sim requires --device (the SIM is one of that phone)');
  const candidate: Record<string, unknown> = { to, body: v.body };
  const optional: [string, unknown][] = [
    ['deviceId', v.device],
    ['simSubscriptionId', v.sim],
    ['priority', v.priority],
    ['autoResend', v['auto-resend']],
    ['sendAt', v['send-at']],
    ['validFor', v['valid-for']],
    ['ignoreSendWindows', v['ignore-send-windows']],
  ];
  for (const [field, value] of optional) if (value !== undefined) candidate[field] = value;
  try {
    return validator.check(candidate, 'body');
  } catch (err) {
    const message = (err as Error).message;
    const field = /^[A-Za-z]+/.exec(message)?.[0] ?? '';
    throw new UsageError(OPTION_OF[field] ? `${OPTION_OF[field]}: ${message}` : message);
  }
}

/** --idempotency-key as the Idempotency-Key header is checked. */
export function idempotencyKeyFrom(args: CommandArgs): string | undefined {
  const key = args.values['idempotency-key'];
  if (typeof key !== 'string') return undefined;
  try {
    return validIdempotencyKey({ value: key, count: 1 });
  } catch (err) {
    throw new UsageError(`--idempotency-key: ${(err as Error).message.replace(/^idempotency-key: /, '')}`);
  }
}
