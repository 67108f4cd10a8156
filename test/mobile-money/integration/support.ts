import type { TestApp } from '../../support/harness.js';
import { AiReaderError, type AiReader, type AiReading } from '../../../src/mobile-money/ai/index.js';
import { waitFor } from '../../incoming/support.js';

/** A genuine-looking MVola "received" notification with its own reference (replay detection is per reference). */
export function mvolaReceived(reference = randomReference(), reason = 'loyer'): string {
  return `850 000 Ar recu de Going Beyond (0345755747) le 02/01/25 a 09:42. Raison: ${reason}. Solde : 1 414 155 Ar. Ref: ${reference}`;
}

/** An MVola SMS the templates recognise but cannot fully read (the amount is garbled): AI territory. */
export function mvolaGarbled(reason = 'test'): string {
  return `1 50 100 Ar recu de Narindra Franco Danhy (0383989016) le 19/05/23 a 01:37. Raison: ${reason}. Solde : 1 730 Ar. Ref: ${randomReference()}`;
}

export const MVOLA_PROMO = "Avec MVola Epargne, profitez d'un taux d'interet de 4 pourcent/an. Faites un depot des 100 Ar et epargnez jusqu'a 100 000 000 Ar. Tapez le #111*1*3*1#";

export const randomReference = () => String(100_000_000 + Math.floor(Math.random() * 899_999_999));

/** Stands in for a remote AI service: answers an amount, or fails when the SMS says AI-FAIL. */
export function fakeAiReader(): AiReader & { calls: number } {
  return {
    provider: 'test-ai',
    model: 'fake-1',
    calls: 0,
    async read({ body }): Promise<AiReading> {
      this.calls++;
      if (body.includes('AI-FAIL')) throw new AiReaderError('AI service answered 503');
      return {
        direction: 'incoming',
        amountMinor: 5_010_000,
        currency: 'MGA',
        reference: null,
        counterpartyName: 'Someone else',
        counterpartyPhoneMasked: null,
        providerTimestamp: null,
        balanceMinor: null,
        feesMinor: null,
        confidence: 0.7,
      };
    },
  };
}

/** Waits until the worker concluded reading the SMS; answers its mobileMoney link (null: no record). */
export async function readingOf(app: TestApp, key: string, incomingId: string, timeoutMs = 10_000) {
  await waitFor(
    `SMS ${incomingId} read`,
    async () => {
      const { rows } = await app.ctx.db.query(
        `SELECT i.money_checked_at IS NOT NULL AND (e.ai_status IS NULL OR e.ai_status <> 'pending') AS done
       FROM incoming_messages i LEFT JOIN mobile_money_events e ON e.incoming_message_id = i.id WHERE i.id = $1`,
        [incomingId],
      );
      return rows[0]?.done === true;
    },
    timeoutMs,
  );
  const res = await app.request('GET', `/v1/incoming/${incomingId}`, { key });
  return res.body.mobileMoney as { id: string; provider: string; classification: string } | null;
}
