import type { BatchFields } from '../messages/sql/insert-messages.js';
import { acceptedMessages } from '../messages/message.js';
import type { SendResult } from './send-request.js';
import type { PreparedBatch } from './prepare-batch.js';
import { OPTED_OUT } from '../opt-outs/split-opted-out.js';

type StoredFields = Omit<BatchFields, 'createdAt' | 'expiresAt' | 'sendAt' | 'orgId' | 'status' | 'autoResendsLeft' | 'autoResend' | 'ignoreSendWindows'> & {
  createdAt: string;
  expiresAt: string;
  sendAt?: string | null;
};

/**
 * What an idempotency key keeps for 24 hours: the shared fields once and the ids and numbers,
 * about a tenth of the 202 it rebuilds exactly (a 500-recipient answer is ~230 KB).
 */
interface StoredAnswer {
  f: StoredFields;
  ids: string[];
  to: string[];
  /** The indexes of the recipients created failed as opted out, when there are any. */
  oo?: number[];
}

export function storedAnswer(batch: PreparedBatch): string {
  const { orgId: _org, status: _status, autoResendsLeft: _left, autoResend: _auto, ignoreSendWindows: _iw, createdAt, expiresAt, sendAt, ...rest } = batch.fields;
  const answer: StoredAnswer = {
    f: { ...rest, createdAt: createdAt.toISOString(), expiresAt: expiresAt.toISOString(), ...(sendAt ? { sendAt: sendAt.toISOString() } : {}) },
    ids: batch.recipients.map((r) => r.id),
    to: batch.recipients.map((r) => r.to),
  };
  const oo = batch.recipients.flatMap((r, i) => (r.failureCode === undefined ? [] : [i]));
  if (oo.length > 0) answer.oo = oo;
  return JSON.stringify(answer);
}

export function answerOf(stored: string): SendResult {
  const a = JSON.parse(stored) as StoredAnswer;
  const oo = new Set(a.oo);
  return {
    batchId: a.f.batchId,
    messages: acceptedMessages(
      a.f,
      a.ids.map((id, i) => (oo.has(i) ? { id, to: a.to[i]!, failureCode: OPTED_OUT } : { id, to: a.to[i]! })),
    ),
  };
}
