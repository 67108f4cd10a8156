export type Provider = 'provider_a' | 'provider_b' | 'provider_c';
export type Classification = 'matched' | 'ambiguous' | 'unknown';
export type ParsingStatus = 'parsed' | 'partial' | 'failed';
export type Direction = 'incoming' | 'outgoing' | null;

/** Everything a reading can say about the transaction itself. */
export interface ReadingFields {
  direction: Direction;
  amountMinor: number | null;
  currency: string | null;
  reference: string | null;
  counterpartyName: string | null;
  counterpartyPhoneMasked: string | null;
  providerTimestamp: string | null;
  balanceMinor: number | null;
  feesMinor: number | null;
}

export interface MobileMoneyReading extends ReadingFields {
  provider: Provider;
  classification: Classification;
  parsingStatus: ParsingStatus;
  parserVersion: string;
  parserConfidence: number | null;
  /** Template kind: 'received', 'sent', 'withdrawal', 'merchant_payment', 'promotion', … */
  kind: string;
  /** Which template read it (null when no template did); for review and drift tracking. */
  templateId: string | null;
}

/** Fields a template can promise; parsingStatus compares what was read against them. */
export type FieldName = 'amountMinor' | 'reference' | 'counterpartyName' | 'counterpartyPhoneMasked' | 'providerTimestamp' | 'balanceMinor' | 'feesMinor';

/** How well the shape is attested: real SMS, another project's tests only, or inferred by us. */
export type Evidence = 'real' | 'tests' | 'inferred';

export interface Template {
  /** Stable id with a revision, e.g. "mvola/received-fr@2"; bump the revision when the shape changes. */
  id: string;
  kind: string;
  direction: Direction;
  /**
   * transaction: a money movement. failure: a refused or failed operation. notice: promotions,
   * codes and other provider messages. Only transactions can be `matched`.
   */
  role: 'transaction' | 'failure' | 'notice';
  evidence: Evidence;
  /**
   * Matches the normalized body. Named groups it may capture: amount (money token),
   * name, phone, party (name and/or phone together), date.
   */
  head: RegExp;
  promises: readonly FieldName[];
}

/** Labelled fields read anywhere in the body; group 1 of the first regex that hits is the value. */
export interface LabelSet {
  balance: readonly RegExp[];
  fees: readonly RegExp[];
  reference: readonly RegExp[];
  date: readonly RegExp[];
}

export interface ProviderRegistry {
  provider: Provider;
  /** Revision of this provider's template set; part of PARSER_VERSION. */
  version: number;
  templates: readonly Template[];
  labels: LabelSet;
  /** What a genuine reference of this provider looks like (field validation). */
  referenceShape: RegExp;
  /** Words that name the provider in a body (used only for SMS from other senders). */
  mentions: RegExp;
}
