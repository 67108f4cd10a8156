import { maskPhone, parseMoneyMinor, type Direction } from '../reading/index.js';
import { AiReaderError, type AiReading } from './types.js';

export const SYSTEM_PROMPT = [
  'You read Madagascar mobile-money SMS (MVola, Orange Money, Airtel Money), in French or Malagasy.',
  'Answer with one JSON object and nothing else, with these keys (null when the SMS does not say):',
  '"direction": "incoming" or "outgoing" for the phone owner;',
  '"amount": the transaction amount exactly as written, with its currency (e.g. "12 500 Ar");',
  '"balance": the wallet balance after the transaction as written; "fees": the fees as written;',
  '"reference": the transaction reference or id; "counterpartyName"; "counterpartyPhone" as written;',
  '"providerTimestamp": the date and time as written; "confidence": a number between 0 and 1.',
  'Bonus, commission, promotions, savings balance and "reste a payer" are never the amount or the fees.',
].join(' ');

type Json = Record<string, unknown>;

/**
 * Turns the model's JSON into reading fields. Amounts are copied as written and parsed here,
 * phones are masked here: the model is never trusted with arithmetic or with masking.
 */
export function parseAiAnswer(content: string): AiReading {
  const answer = parseJsonObject(content);
  const amount = text(answer, 'amount', 40);
  const phone = text(answer, 'counterpartyPhone', 30);
  return {
    direction: direction(answer.direction),
    amountMinor: amount === null ? null : parseMoneyMinor(amount),
    currency: amount === null ? null : 'MGA',
    reference: text(answer, 'reference', 64),
    counterpartyName: text(answer, 'counterpartyName', 100),
    counterpartyPhoneMasked: phone === null ? null : maskPhone(phone),
    providerTimestamp: text(answer, 'providerTimestamp', 40),
    balanceMinor: money(answer, 'balance'),
    feesMinor: money(answer, 'fees'),
    confidence: confidence(answer.confidence),
  };
}

function parseJsonObject(content: string): Json {
  const unfenced = content.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  let value: unknown;
  try {
    value = JSON.parse(unfenced);
  } catch {
    throw new AiReaderError('AI answer is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AiReaderError('AI answer is not a JSON object');
  }
  return value as Json;
}

function text(answer: Json, key: string, maxLength: number): string | null {
  const value = answer[key];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed.slice(0, maxLength);
}

function money(answer: Json, key: string): number | null {
  const value = text(answer, key, 40);
  return value === null ? null : parseMoneyMinor(value);
}

function direction(value: unknown): Direction {
  return value === 'incoming' || value === 'outgoing' ? value : null;
}

function confidence(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Math.min(Math.max(value, 0), 1);
}
