import { describe, expect, it } from 'vitest';
import { buildsTable, compareTable, type Run } from '../../bench/report/compare-table.js';

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

  it('bisects several builds: a column each, and each step: its change against the build before it', () => {
    const table = buildsTable([
      { name: 'aa25be5', runs: [run('aa25be5-1', 1, 0.4), run('aa25be5-2', 1, 0.4)] },
      { name: 'b233503', runs: [run('b233503-1', 1, 0.3), run('b233503-2', 1, 0.3)] },
      { name: 'this build', runs: [run('current-1', 1, 0.33), run('current-2', 1, 0.33)] },
    ]);
    const [head, rule, row] = table.split('\n');
    expect(head).toBe(
      '| figure | compared as | aa25be5 (aa25be5-1, aa25be5-2) | b233503 (b233503-1, b233503-2) | this build (current-1, current-2) | change aa25be5 → b233503 | change b233503 → this build |',
    );
    expect(rule!.split('|').length).toBe(head!.split('|').length);
    expect(row).toBe('| GET by id per second | ratio to ceiling | 40.0% / 40.0% | 30.0% / 30.0% | 33.0% / 33.0% | -25.0% | +10.0% |');
  });
});
