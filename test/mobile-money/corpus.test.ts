import { afterAll, describe, expect, it } from 'vitest';
import { PARSER_VERSION, readMobileMoney, type MobileMoneyReading } from '../../src/mobile-money/reading/index.js';
import { loadCorpus, type CorpusCase } from './corpus.js';
import { precisionRecall } from './metrics.js';

const corpus = loadCorpus();
const results: Array<{ case: CorpusCase; actual: MobileMoneyReading | null }> = [];

describe('mobile-money corpus (real-format notifications and traps)', () => {
  it('holds at least 80 SMS covering the three providers and non-money SMS', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(80);
    const providers = new Set(corpus.map((c) => c.expected?.provider ?? 'none'));
    expect([...providers].sort()).toEqual(['none', 'provider_a', 'provider_b', 'provider_c']);
  });

  it.each(corpus.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const actual = readMobileMoney({ from: c.from, body: c.body });
    results.push({ case: c, actual });
    if (c.expected === null) {
      expect(actual).toBeNull();
      return;
    }
    expect(actual).not.toBeNull();
    const { parserVersion, parserConfidence, templateId: _templateId, ...fields } = actual!;
    expect(fields).toEqual(c.expected);
    expect(parserVersion).toBe(PARSER_VERSION);
    expect(parserConfidence).toBeGreaterThanOrEqual(0);
    expect(parserConfidence).toBeLessThanOrEqual(1);
  });

  afterAll(() => {
    console.log(`\nMobile-money reader ${PARSER_VERSION}: precision / recall per provider and field`);
    console.table(precisionRecall(results).filter((row) => row.support > 0 || row.precision !== 'n/a'));
  });
});
