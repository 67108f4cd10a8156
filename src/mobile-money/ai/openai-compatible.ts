import { SYSTEM_PROMPT, parseAiAnswer } from './answer.js';
import { AiReaderError, type AiReader, type AiReaderInput, type AiReading } from './types.js';

export interface OpenAiCompatibleOptions {
  /** Base URL of the API, e.g. "https://api.openai.com/v1" or a local server's "/v1". */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Whole request budget; a slow model must not hold the worker. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** A fallback reader speaking the chat-completions protocol, asking for a JSON answer. */
export class OpenAiCompatibleReader implements AiReader {
  readonly provider = 'openai-compatible';
  readonly model: string;
  private readonly endpoint: URL;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;

  constructor(options: OpenAiCompatibleOptions) {
    this.model = options.model;
    this.endpoint = new URL('chat/completions', options.baseUrl.replace(/\/*$/, '/'));
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async read(input: AiReaderInput): Promise<AiReading> {
    const response = await this.post({
      model: this.model,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: `Provider: ${input.provider}\nSMS: ${input.body}` },
      ],
    });
    const content = (response as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new AiReaderError('AI response has no message content');
    return parseAiAnswer(content);
  }

  private async post(payload: unknown): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new AiReaderError(`AI request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw new AiReaderError(`AI endpoint answered HTTP ${response.status}`);
    try {
      return await response.json();
    } catch {
      throw new AiReaderError('AI endpoint answered something that is not JSON');
    }
  }
}
