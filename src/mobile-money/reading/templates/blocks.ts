import { CURRENCY_SOURCE, MONEY_SOURCE, NUMBER_SOURCE } from '../amount.js';
import type { Direction, Evidence, FieldName, Template } from '../types.js';

/** Optional short tag some gateways or phones put first ("Info: ", "MVola: "). */
export const START = String.raw`^(?:[A-Za-z-]{2,12} ?: ?)?`;
/** The transaction amount, currency on either side. */
export const AMOUNT = String.raw`(?<amount>${MONEY_SOURCE})`;
/** Airtel writes the currency first ("Ar 300"); requiring it keeps Airtel heads off MVola bodies. */
export const AMOUNT_CURRENCY_FIRST = String.raw`(?<amount>${CURRENCY_SOURCE} ?${NUMBER_SOURCE})`;
/** "19/05/23 a 02:30", "06/07/2026 a 17:28:55", "11/11/24 11:11", "04/06/26". */
export const DATE = String.raw`(?<date>\d{1,2}/\d{1,2}/\d{2,4}(?: (?:a )?\d{1,2}[:h]\d{2}(?::\d{2})?)?)`;
/** Name and/or number of the other party, split later (see party.ts). */
export const PARTY = String.raw`(?<party>[^.]+?)`;
/** A labelled money value for LabelSets. */
export const MONEY = String.raw`(${MONEY_SOURCE})`;
/** A reference token: letters, digits and inner dots ("PP230519.0405.C62279", "a7924941"). */
export const REF = String.raw`([A-Za-z0-9](?:[A-Za-z0-9.]*[A-Za-z0-9])?)`;
/** Timestamped ids shared by Orange Money and Airtel Money: (PP|CI|CO|MP)yymmdd.hhmm.X99999. */
export const TIMESTAMPED_ID = String.raw`\b((?:PP|CI|CO|MP)\d{6}\.\d{4}\.[A-Za-z0-9]+)`;

export function labels(...sources: string[]): RegExp[] {
  return sources.map((source) => new RegExp(source, 'i'));
}

interface TemplateSpec {
  id: string;
  kind: string;
  direction?: Direction;
  role?: Template['role'];
  evidence: Evidence;
  head: string;
  promises?: readonly FieldName[];
}

export function template(spec: TemplateSpec): Template {
  return {
    id: spec.id,
    kind: spec.kind,
    direction: spec.direction ?? null,
    role: spec.role ?? 'transaction',
    evidence: spec.evidence,
    head: new RegExp(spec.head, 'i'),
    promises: spec.promises ?? [],
  };
}

/** Fields every money movement notification of these providers carries. */
export const CORE: readonly FieldName[] = ['amountMinor', 'balanceMinor', 'reference'];
