import { anythingRead } from './fields.js';
import type { Draft } from './apply-template.js';
import type { Evidence, ParsingStatus } from './types.js';

/** How far a template's shape can be trusted, from where it was learned. */
const EVIDENCE_WEIGHT: Readonly<Record<Evidence, number>> = { real: 0.95, tests: 0.8, inferred: 0.65 };
const GENERIC_WEIGHT = 0.35;
/** A body that reads perfectly from the wrong sender is still only a claim. */
const UNTRUSTED_SENDER_WEIGHT = 0.5;
const DISAGREEMENT_WEIGHT = 0.6;
const MISSING_AMOUNT_WEIGHT = 0.5;
const MISSING_FIELD_WEIGHT = 0.85;
const INVALID_FIELD_WEIGHT = 0.8;

export function parsingStatusOf(draft: Draft): ParsingStatus {
  if (!anythingRead(draft.fields)) return 'failed';
  if (!draft.template) return 'partial';
  const missing = draft.template.promises.some((field) => draft.fields[field] === null);
  return missing ? 'partial' : 'parsed';
}

export interface TrustContext {
  trustedSender: boolean;
  disagreement: boolean;
}

/**
 * Confidence from the template's provenance, the sender's trust and field validation
 * (promised fields missing, a reference that does not look like this provider's).
 * It does not grow with the number of fields, so a promotion full of numbers stays low.
 */
export function confidenceOf(draft: Draft, trust: TrustContext): number {
  let score = draft.template ? EVIDENCE_WEIGHT[draft.template.evidence] : GENERIC_WEIGHT;
  if (!trust.trustedSender) score *= UNTRUSTED_SENDER_WEIGHT;
  if (trust.disagreement) score *= DISAGREEMENT_WEIGHT;
  score *= validationWeight(draft);
  return Math.round(Math.min(Math.max(score, 0), 1) * 100) / 100;
}

function validationWeight(draft: Draft): number {
  const { fields, template, registry } = draft;
  let weight = 1;
  if (template?.role === 'transaction' || !template) {
    if (fields.amountMinor === null) weight *= MISSING_AMOUNT_WEIGHT;
  }
  for (const field of template?.promises ?? []) {
    if (field !== 'amountMinor' && fields[field] === null) weight *= MISSING_FIELD_WEIGHT;
  }
  if (fields.reference !== null && !registry.referenceShape.test(fields.reference)) weight *= INVALID_FIELD_WEIGHT;
  if (fields.balanceMinor !== null && fields.balanceMinor < 0) weight *= INVALID_FIELD_WEIGHT;
  return weight;
}
