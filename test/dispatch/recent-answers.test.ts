import { describe, expect, it } from 'vitest';
import { RecentAnswers } from '../../src/dispatch/recent-answers.js';
import type { FrameReply } from '../../src/dispatch/frame-reply.js';

const ack = (ref: string, extra: object = {}): FrameReply => ({ type: 'ack', ref, ...extra });

/** Answers `ref` through the cache, counting the runs of each ref. */
function asker(answers: RecentAnswers) {
  const runs = new Map<string, number>();
  return {
    runs,
    ask: (ref: string, reply: FrameReply = ack(ref)) =>
      answers.answer(ref, async () => {
        runs.set(ref, (runs.get(ref) ?? 0) + 1);
        return reply;
      }),
  };
}

describe("a socket's recent answers", () => {
  it('answers a resend, in flight or settled, with the first answer, running the frame once', async () => {
    const { runs, ask } = asker(new RecentAnswers());
    const [first, inFlight] = await Promise.all([ask('r1'), ask('r1')]);
    const settled = await ask('r1');
    expect(inFlight).toBe(first);
    expect(settled).toBe(first);
    expect(runs.get('r1')).toBe(1);
  });

  it('forgets the oldest refs past its count', async () => {
    const answers = new RecentAnswers(3);
    const { runs, ask } = asker(answers);
    for (const ref of ['a', 'b', 'c', 'd']) await ask(ref);
    expect(answers.size).toBe(3);
    await ask('a');
    await ask('d');
    expect(runs.get('a')).toBe(2);
    expect(runs.get('d')).toBe(1);
  });

  it('forgets the oldest claim acks past its bytes, and counts the bytes of those it forgot back', async () => {
    const answers = new RecentAnswers(100, 3000);
    const { runs, ask } = asker(answers);
    const jobs = [{ body: 'x'.repeat(1200) }];
    await ask('c1', ack('c1', { jobs }));
    await ask('c2', ack('c2', { jobs }));
    expect(answers.size).toBe(2);
    await ask('c3', ack('c3', { jobs }));
    expect(answers.size).toBe(2);
    await ask('c1', ack('c1', { jobs }));
    expect(runs.get('c1')).toBe(2);
    // Each claim ack counts 1,424 bytes: the second small answer pushes c3 out, and the rest fit
    // beside c1 because the bytes of those forgotten were given back.
    for (let i = 0; i < 5; i++) await ask(`s${i}`);
    expect(answers.size).toBe(6);
    await ask('c1', ack('c1', { jobs }));
    await ask('c3', ack('c3', { jobs }));
    expect([runs.get('c1'), runs.get('c3')]).toEqual([2, 2]);
  });
});
