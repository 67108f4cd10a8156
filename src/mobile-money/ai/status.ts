import type { MobileMoneyReading } from '../reading/index.js';
import type { AiReader, AiReading, AiState } from './types.js';

export interface AiPolicy {
  /** The organization opted in to sending unread SMS bodies to its configured AI reader. */
  consented: boolean;
  reader: AiReader | null;
}

/** Templates read it: a matched transaction, or a recognized non-transaction (promotion, failure). */
function templatesReadIt(reading: MobileMoneyReading): boolean {
  if (reading.classification === 'matched') return true;
  return reading.classification === 'unknown' && reading.templateId !== null;
}

/** The `ai` state a new reading starts with; `pending` means the caller should run the reader. */
export function initialAiState(reading: MobileMoneyReading, policy: AiPolicy): AiState {
  const none = { provider: null, model: null, confidence: null };
  if (templatesReadIt(reading)) return { status: 'not_needed', ...none };
  if (!policy.consented) return { status: 'not_consented', ...none };
  if (!policy.reader) return { status: 'ai_unavailable', ...none };
  return { status: 'pending', provider: policy.reader.provider, model: policy.reader.model, confidence: null };
}

export interface AiOutcome {
  ai: AiState;
  fields: AiReading | null;
  error: string | null;
}

/** Runs the reader once; any error (network, HTTP, malformed answer) ends as `failed`, never throws. */
export async function runAiReader(reader: AiReader, reading: Pick<MobileMoneyReading, 'provider'>, body: string): Promise<AiOutcome> {
  const base = { provider: reader.provider, model: reader.model };
  try {
    const fields = await reader.read({ provider: reading.provider, body });
    return { ai: { status: 'completed', ...base, confidence: fields.confidence }, fields, error: null };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ai: { status: 'failed', ...base, confidence: null }, fields: null, error: message };
  }
}
