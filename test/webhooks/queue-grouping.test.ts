import { describe, expect, it } from 'vitest';
import { DELIVERIES_PER_JOB, groupIntoJobs, type DeliveryToQueue } from '../../src/webhooks/queue.js';

const NOW = 1_700_000_000_000;
const delivery = (id: string, endpointId: string, notBefore: number | null): DeliveryToQueue => ({ id, endpointId, notBefore: notBefore === null ? null : new Date(notBefore) });

describe('grouping deliveries into jobs', () => {
  it("puts one endpoint's deliveries due now together, at most DELIVERIES_PER_JOB a job, in order", () => {
    const list = Array.from({ length: DELIVERIES_PER_JOB + 3 }, (_, i) => delivery(`d${i}`, 'e1', i % 2 ? null : NOW - 10));
    const jobs = groupIntoJobs(list, { now: NOW });
    expect(jobs.map((j) => j.data.deliveryIds.length)).toEqual([DELIVERIES_PER_JOB, 3]);
    expect(jobs.flatMap((j) => j.data.deliveryIds)).toEqual(list.map((d) => d.id));
    expect(jobs.every((j) => j.delay === 0 && j.data.endpointId === 'e1' && j.jobId === undefined)).toBe(true);
  });

  it('never mixes endpoints in a job', () => {
    const jobs = groupIntoJobs([delivery('a', 'e1', null), delivery('b', 'e2', null), delivery('c', 'e1', null)], { now: NOW });
    expect(jobs.map((j) => [j.data.endpointId, j.data.deliveryIds])).toEqual([
      ['e1', ['a', 'c']],
      ['e2', ['b']],
    ]);
  });

  it('runs a job for later deliveries at the second after they are all due, never before', () => {
    const jobs = groupIntoJobs([delivery('a', 'e1', NOW + 4200), delivery('b', 'e1', NOW + 4900), delivery('c', 'e1', NOW + 5100)], { now: NOW });
    expect(jobs.map((j) => [j.data.deliveryIds, j.delay])).toEqual([
      [['a', 'b'], 5000],
      [['c'], 6000],
    ]);
  });

  it("names the recovery pass's jobs after their first and last deliveries, so the same group offered again is one job", () => {
    const list = [delivery('a', 'e1', NOW - 1), delivery('b', 'e1', NOW - 1), delivery('c', 'e2', NOW + 2500)];
    const jobs = groupIntoJobs(list, { now: NOW, named: true });
    expect(jobs).toEqual([
      { data: { endpointId: 'e1', deliveryIds: ['a', 'b'] }, delay: 0, jobId: 'a..b' },
      { data: { endpointId: 'e2', deliveryIds: ['c'] }, delay: 3000, jobId: 'c..c' },
    ]);
    expect(groupIntoJobs(list, { now: NOW + 500, named: true }).map((j) => j.jobId)).toEqual(['a..b', 'c..c']);
  });
});
