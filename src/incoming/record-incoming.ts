import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { inTransaction, type Queryable } from '../db/pool.js';
import { recordEvents } from '../events/record-events.js';
import { errors } from '../errors/errors.js';
import { inboundLockedError, loadInboundDevice, type InboundDevice } from './inbound-device.js';
import type { ClockSkewWarning } from '../time/phone-clock.js';
import { prepareSms, type PreparedSms } from './prepared-sms.js';
import { storeMessages } from './store-messages.js';
import { storePart } from './join-parts.js';
import { toIncomingMessage, type IncomingRow } from './incoming-row.js';
import { selectIncomingByIds } from './sql/select-incoming-by-ids.js';
import type { IncomingSms } from './schemas.js';
import { applyOptOutWords } from '../opt-outs/from-incoming.js';
import { sendOptOutReplies } from '../sending/opt-out-replies.js';

export interface IncomingResult {
  clientId: string;
  /** null while a part waits for its siblings. */
  incomingId: string | null;
  pending?: true;
  warning?: ClockSkewWarning;
}

export type IncomingItemResult = IncomingResult | { clientId: string; error: { code: string; message: string } };

/** One received SMS (a socket `incoming` frame). Throws `inbound_locked` while inbound is locked. */
export async function recordIncoming(ctx: AppContext, principal: DevicePrincipal, sms: IncomingSms): Promise<IncomingResult> {
  const device = await loadInboundDevice(ctx.db, principal, ctx.config.inboundFreshnessSeconds);
  const locked = inboundLockedError(device.inbound, ctx.config.inboundFreshnessSeconds);
  if (locked) throw locked;
  const invalid = partProblem(sms);
  if (invalid) throw errors.invalid(invalid);
  return (await storeBatch(ctx, device, [sms]))[0]!;
}

/**
 * A batch of received SMS (POST /device/v1/incoming): one transaction, one enqueue. While inbound
 * is locked every item answers `inbound_locked` and nothing is stored.
 */
export async function recordIncomingMany(ctx: AppContext, principal: DevicePrincipal, list: IncomingSms[]): Promise<IncomingItemResult[]> {
  const device = await loadInboundDevice(ctx.db, principal, ctx.config.inboundFreshnessSeconds);
  const locked = inboundLockedError(device.inbound, ctx.config.inboundFreshnessSeconds);
  if (locked) return list.map((s) => ({ clientId: s.clientId, error: { code: locked.code, message: locked.message } }));
  const valid = list.filter((s) => !partProblem(s));
  const stored = new Map((await storeBatch(ctx, device, valid)).map((r, i) => [valid[i]!, r]));
  return list.map((s) => stored.get(s) ?? { clientId: s.clientId, error: { code: 'invalid_request', message: partProblem(s)! } });
}

/** A part numbered past its count could never be joined: refused instead of waiting forever. */
function partProblem(sms: IncomingSms): string | null {
  if (!sms.part || sms.part.index <= sms.part.count) return null;
  return `part.index ${sms.part.index} is greater than part.count ${sms.part.count}`;
}

async function storeBatch(ctx: AppContext, device: InboundDevice, list: IncomingSms[]): Promise<IncomingResult[]> {
  const now = new Date();
  const items = list.map((s) => prepareSms(s, now));
  const { results, created, optOuts } = await inTransaction(ctx.db, async (tx) => {
    const stored = await storeAll(tx, device, items);
    const rows = await recordReceived(tx, device.orgId, stored.created);
    return { ...stored, optOuts: await applyOptOutWords(tx, device.orgId, rows) };
  });
  await ctx.parseQueue.enqueue(created);
  await sendOptOutReplies(ctx, device.orgId, optOuts);
  return results;
}

async function storeAll(tx: Queryable, device: InboundDevice, items: PreparedSms[]): Promise<{ results: IncomingResult[]; created: string[] }> {
  const singles = items.filter((i) => !i.sms.part);
  const { idByClientId, created } = await storeMessages(
    tx,
    device,
    singles.map(({ sms, receivedAt }) => ({
      clientId: sms.clientId,
      from: sms.from,
      body: sms.body,
      simSubscriptionId: sms.simSubscriptionId ?? null,
      receivedAt,
    })),
  );
  const results: IncomingResult[] = [];
  for (const item of items) {
    const base = { clientId: item.sms.clientId, ...(item.warning ? { warning: item.warning } : {}) };
    if (!item.sms.part) {
      results.push({ ...base, incomingId: idByClientId.get(item.sms.clientId)! });
      continue;
    }
    const outcome = await storePart(tx, device, item);
    if ('pending' in outcome) {
      results.push({ ...base, incomingId: null, pending: true });
    } else {
      if (outcome.created) created.push(outcome.incomingId);
      results.push({ ...base, incomingId: outcome.incomingId });
    }
  }
  return { results, created };
}

/** `incoming.received` carries the full IncomingMessage, written with the rows (the outbox). Returns the rows. */
async function recordReceived(tx: Queryable, orgId: string, ids: string[]): Promise<IncomingRow[]> {
  if (ids.length === 0) return [];
  const rows = await selectIncomingByIds(tx, ids);
  await recordEvents(
    tx,
    orgId,
    rows.map((r) => ({ type: 'incoming.received' as const, data: () => toIncomingMessage(r) })),
  );
  return rows;
}
