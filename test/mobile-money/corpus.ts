import { readFileSync } from 'node:fs';
import type { MobileMoneyReading } from '../../src/mobile-money/reading/index.js';

export type ExpectedReading = Omit<MobileMoneyReading, 'parserVersion' | 'parserConfidence' | 'templateId'>;

export interface CorpusCase {
  id: string;
  from: string;
  body: string;
  /** Where the message shape comes from (idx N = search-tool file id, see docs/mobile-money.md). */
  source: string;
  expected: ExpectedReading | null;
}

export function loadCorpus(): CorpusCase[] {
  const url = new URL('../fixtures/mobile-money/corpus.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as CorpusCase[];
}
