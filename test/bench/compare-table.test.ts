import { describe, expect, it } from 'vitest';
import { compareTable, type Run } from '../../bench/report/compare-table.js';

const run = (label: string, value: number, ratio?: number, extra: Run['figures'] = []): Run => ({
  label,
  figures: [{ key: 'read.getByIdPerSecond', label: 'GET by id per second', value, unit: 'req/s', ...(ratio !== undefined ? { ratio } : {}) }, ...extra],
});

describe('bench:compare table', () => {
  it('compares figures with a ceiling by their ratio, run by run, and gives the change of the means', () => {
    const table = compareTable('aa25be5', [run('base-1', 12_867, 0.352), run('base-2', 11_325, 0.457)], [run('current-1', 8_255, 0.23), run('current-2', 7_432, 0.251)]);
    const row = table.split('\n').find((l) => l.startsWith('| GET by id per second'))!;
    expect(row).toBe('| GET by id per second | ratio to ceiling | 35.2% / 45.7% | 23.0% / 25.1% | -40.5% |');
    expect(table.split('\n')[0]).toContain('aa25be5 (base-1, base-2)');
  });

  it('compares figures without a ceiling by value, and marks a figure one build lacks', () => {
    const extra = (v: number) => [{ key: 'fleet.jobsLatency.p99', label: 'fleet p99', value: v, unit: 'ms' }];
    const table = compareTable('HEAD~1', [run('base-1', 100)], [run('current-1', 100, undefined, extra(22.4))]);
    expect(table).toContain('| fleet p99 | ms | – | 22.4 | – |');
    expect(table).toContain('| GET by id per second | req/s | 100 | 100 | +0.0% |');
  });
});
