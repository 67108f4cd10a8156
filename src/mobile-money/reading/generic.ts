import { MONEY_SOURCE, parseMoneyMinor } from './amount.js';
import type { Draft } from './apply-template.js';
import { emptyFields, readLabelledFields } from './fields.js';
import type { Direction, ProviderRegistry } from './types.js';

const MONEY = new RegExp(MONEY_SOURCE, 'i');
const EVERY_MONEY = new RegExp(MONEY_SOURCE, 'gi');
const VERB = /\b(recu|naharay|nahazo|azo|received|envoye|transfere|retrait|paye|paiement|achat|debite|nandefa|fandefasana\w*|sent|paid|withdrawn)\b/i;
const INCOMING_VERBS = new Set(['recu', 'naharay', 'nahazo', 'azo', 'received']);
/** A notification carries a reference or a balance; chat about money rarely does. */
const NOTIFICATION_LABEL = /\b(?:ref|trans ?id|solde|toe-? ?bola\w*|volanao|balance)\b|\bid ?:/i;
/** Labels whose number is never the transaction amount. */
const NOT_THE_AMOUNT = /(?:solde|frais|bonus|commission|payer|epargne\w*|sarany|bola\w*|volanao|balance|jusqu'a|des|dia|de credit)[^.\d]{0,14}$/i;

/** A body that reads like a money movement notification (amount, verb, reference or balance). */
export function looksLikeMoneyNotice(text: string): boolean {
  return VERB.test(text) && NOTIFICATION_LABEL.test(text) && MONEY.test(text);
}

/**
 * Best-effort reading when no template matched: direction from the first verb, the first
 * amount that is not labelled as something else, labelled fields of the guessed provider.
 * Never complete (status at most `partial`), so it can only yield an `ambiguous` record.
 */
export function readGeneric(registry: ProviderRegistry, text: string): Draft {
  const fields = emptyFields();
  fields.direction = directionOf(text);
  const amount = firstTransactionAmount(text);
  if (amount !== null) {
    fields.amountMinor = parseMoneyMinor(amount);
    fields.currency = 'MGA';
  }
  readLabelledFields(registry.labels, text, fields);
  return { registry, template: null, fields };
}

/** The body names a sum of money that is not a balance, a fee or a bonus. */
export function namesAnAmount(text: string): boolean {
  return firstTransactionAmount(text) !== null;
}

function directionOf(text: string): Direction {
  const verb = VERB.exec(text)?.[1]?.toLowerCase();
  if (!verb) return null;
  return INCOMING_VERBS.has(verb) ? 'incoming' : 'outgoing';
}

function firstTransactionAmount(text: string): string | null {
  for (const match of text.matchAll(EVERY_MONEY)) {
    const before = text.slice(Math.max(0, match.index - 30), match.index);
    if (!NOT_THE_AMOUNT.test(before)) return match[0];
  }
  return null;
}
