import type { Config } from '../config/config.js';
import { OpenAiCompatibleReader, type AiReader } from './ai/index.js';

/** The configured AI fallback reader, or null (the default): records then say `ai_unavailable`. */
export function aiReaderFromConfig(config: Config): AiReader | null {
  if (!config.aiBaseUrl || !config.aiModel) return null;
  return new OpenAiCompatibleReader({ baseUrl: config.aiBaseUrl, apiKey: config.aiApiKey || undefined, model: config.aiModel });
}
