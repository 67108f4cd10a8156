import type { Queryable } from '../../db/pool.js';
import type { AiOutcome } from '../ai/index.js';
import { EVENT_COLUMNS, type MobileMoneyRow } from '../event-row.js';

/** Ends a `pending` AI state once; the reader's fields fill only empty columns. Undefined when it was not pending. */
export async function concludeAiRow(tx: Queryable, eventId: string, outcome: AiOutcome): Promise<MobileMoneyRow | undefined> {
  const f = outcome.fields;
  const { rows } = await tx.query<MobileMoneyRow>(
    `UPDATE mobile_money_events SET ai_status = $2, ai_provider = $3, ai_model = $4, ai_confidence = $5,
       direction = COALESCE(direction, $6), amount_minor = COALESCE(amount_minor, $7), currency = COALESCE(currency, $8),
       reference = COALESCE(reference, $9), counterparty_name = COALESCE(counterparty_name, $10),
       counterparty_phone_masked = COALESCE(counterparty_phone_masked, $11),
       provider_timestamp = COALESCE(provider_timestamp, $12), balance_minor = COALESCE(balance_minor, $13),
       fees_minor = COALESCE(fees_minor, $14), updated_at = now()
     WHERE id = $1 AND ai_status = 'pending' RETURNING ${EVENT_COLUMNS}`,
    [
      eventId,
      outcome.ai.status,
      outcome.ai.provider,
      outcome.ai.model,
      outcome.ai.confidence,
      f?.direction ?? null,
      f?.amountMinor ?? null,
      f?.currency ?? null,
      f?.reference ?? null,
      f?.counterpartyName ?? null,
      f?.counterpartyPhoneMasked ?? null,
      f?.providerTimestamp ?? null,
      f?.balanceMinor ?? null,
      f?.feesMinor ?? null,
    ],
  );
  return rows[0];
}
