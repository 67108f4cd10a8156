import { parseMoneyMinor } from './amount.js';
import type { LabelSet, ReadingFields } from './types.js';

export type Fields = ReadingFields;

export function emptyFields(): Fields {
  return {
    direction: null,
    amountMinor: null,
    currency: null,
    reference: null,
    counterpartyName: null,
    counterpartyPhoneMasked: null,
    providerTimestamp: null,
    balanceMinor: null,
    feesMinor: null,
  };
}

export function readLabel(patterns: readonly RegExp[], text: string): string | null {
  for (const pattern of patterns) {
    const value = pattern.exec(text)?.[1];
    if (value) return value;
  }
  return null;
}

function readMoneyLabel(patterns: readonly RegExp[], text: string): number | null {
  const token = readLabel(patterns, text);
  return token === null ? null : parseMoneyMinor(token);
}

/** Balance, fees, reference and date: read by their labels wherever they sit in the body. */
export function readLabelledFields(labels: LabelSet, text: string, fields: Fields): void {
  fields.balanceMinor = readMoneyLabel(labels.balance, text);
  fields.feesMinor = readMoneyLabel(labels.fees, text);
  fields.reference = readLabel(labels.reference, text);
  fields.providerTimestamp ??= readLabel(labels.date, text);
}

export function anythingRead(fields: Fields): boolean {
  return (
    fields.amountMinor !== null ||
    fields.reference !== null ||
    fields.counterpartyName !== null ||
    fields.counterpartyPhoneMasked !== null ||
    fields.providerTimestamp !== null ||
    fields.balanceMinor !== null ||
    fields.feesMinor !== null
  );
}
