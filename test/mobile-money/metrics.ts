import type { MobileMoneyReading } from '../../src/mobile-money/reading/index.js';
import type { CorpusCase, ExpectedReading } from './corpus.js';

export const SCORED_FIELDS = [
  'classification',
  'direction',
  'amountMinor',
  'currency',
  'reference',
  'counterpartyName',
  'counterpartyPhoneMasked',
  'providerTimestamp',
  'balanceMinor',
  'feesMinor',
] as const satisfies ReadonlyArray<keyof ExpectedReading>;

interface Tally {
  truePositive: number;
  falsePositive: number;
  falseNegative: number;
}

/**
 * Precision and recall per provider and field. A value is a positive when it is not null;
 * a record returned for an SMS that should give none counts as a false positive on every
 * field it fills (and on `record`), a missing record as false negatives.
 */
export function precisionRecall(results: Array<{ case: CorpusCase; actual: MobileMoneyReading | null }>) {
  const tallies = new Map<string, Tally>();
  const tally = (provider: string, field: string, expected: unknown, actual: unknown) => {
    const key = `${provider}\u0000${field}`;
    const t = tallies.get(key) ?? { truePositive: 0, falsePositive: 0, falseNegative: 0 };
    if (actual !== null && actual !== undefined && actual === expected) t.truePositive += 1;
    else {
      if (actual !== null && actual !== undefined) t.falsePositive += 1;
      if (expected !== null && expected !== undefined) t.falseNegative += 1;
    }
    tallies.set(key, t);
  };
  for (const { case: c, actual } of results) {
    const provider = c.expected?.provider ?? actual?.provider ?? 'none';
    tally(provider, 'record', c.expected ? 'yes' : null, actual ? 'yes' : null);
    for (const field of SCORED_FIELDS) tally(provider, field, c.expected?.[field] ?? null, actual?.[field] ?? null);
  }
  return [...tallies.entries()].map(([key, t]) => {
    const [provider, field] = key.split('\u0000');
    return {
      provider,
      field,
      precision: ratio(t.truePositive, t.truePositive + t.falsePositive),
      recall: ratio(t.truePositive, t.truePositive + t.falseNegative),
      support: t.truePositive + t.falseNegative,
    };
  });
}

function ratio(numerator: number, denominator: number): number | string {
  return denominator === 0 ? 'n/a' : Math.round((numerator / denominator) * 1000) / 1000;
}
