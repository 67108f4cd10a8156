export { OpenAiCompatibleReader, type OpenAiCompatibleOptions } from './openai-compatible.js';
export { initialAiState, runAiReader, type AiOutcome, type AiPolicy } from './status.js';
export { parseAiAnswer } from './answer.js';
export { AiReaderError, type AiReader, type AiReaderInput, type AiReading, type AiState, type AiStatus } from './types.js';
