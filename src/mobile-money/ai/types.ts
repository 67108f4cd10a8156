import type { Provider, ReadingFields } from '../reading/index.js';

export type AiStatus = 'not_needed' | 'pending' | 'not_consented' | 'ai_unavailable' | 'completed' | 'failed';

/** The `ai` object of a mobile-money event. */
export interface AiState {
  status: AiStatus;
  provider: string | null;
  model: string | null;
  confidence: number | null;
}

export interface AiReaderInput {
  provider: Provider;
  body: string;
}

/** What a fallback reader returns; amounts already in minor units, phone already masked. */
export interface AiReading extends ReadingFields {
  confidence: number | null;
}

/**
 * A fallback reader for SMS the templates could not read. None is configured by default;
 * its answers fill fields only, they never make a reading `matched` (trust stays with the sender id).
 */
export interface AiReader {
  /** Names the service for the `ai.provider` field, e.g. "openai-compatible". */
  readonly provider: string;
  readonly model: string;
  read(input: AiReaderInput): Promise<AiReading>;
}

export class AiReaderError extends Error {
  override readonly name = 'AiReaderError';
}
