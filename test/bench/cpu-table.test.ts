import { describe, expect, it } from 'vitest';
import { cpuTable, type CpuRun } from '../../bench/report/cpu-table.js';

const cpuRun = (build: string, round: number, apiUs: number, failed = 0): CpuRun => ({ workload: 'get', build, round, apiUs, postgresUs: 8, redisUs: 1, perSecond: 15_000, failed });

describe('the CPU comparison table', () => {
  it("gives each build's runs in round order and the change of the means", () => {
    const table = cpuTable([cpuRun('abc123', 2, 30), cpuRun('this build', 1, 27), cpuRun('abc123', 1, 28), cpuRun('this build', 2, 25)], 'abc123', 'this build');
    expect(table).toContain('| get | API | 28.00 / 30.00 | 27.00 / 25.00 | -10.3% |');
    expect(table).toContain('| get | Postgres | 8.00 / 8.00 | 8.00 / 8.00 | +0.0% |');
  });

  it('says when some requests failed, as their runs then measured something else', () => {
    expect(cpuTable([cpuRun('abc123', 1, 28), cpuRun('this build', 1, 27, 3)], 'abc123', 'this build')).toContain('3 in all: the figures above are not comparable');
  });
});
