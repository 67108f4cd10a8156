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

describe("a socket's recent answers over time", () => {
  /** RecentAnswers on a clock the test turns: windows of 60 s. */
  function clocked() {
    let now = 0;
    const answers = new RecentAnswers(256, 1024 * 1024, 60_000, () => now);
    return { answers, ...asker(answers), at: (ms: number) => (now = ms) };
  }

  it('remembers an answer through the window after its own, and forgets it past that', async () => {
    const { answers, runs, ask, at } = clocked();
    await ask('h1');
    at(61_000);
    await ask('h1');
    expect(runs.get('h1')).toBe(1);
    await ask('h2');
    at(121_000);
    await ask('h2');
    expect(runs.get('h2')).toBe(1);
    await ask('h1');
    expect(runs.get('h1')).toBe(2);
    expect(answers.size).toBe(2);
  });

  it('keeps an idle phone to the answers of two windows, not 256 heartbeats', async () => {
    const { answers, ask, at } = clocked();
    // A heartbeat every 30 s for three hours, each with a ref of its own.
    for (let i = 0; i < 360; i++) {
      at(i * 30_000);
      await ask(`hb-${i}`);
    }
    expect(answers.size).toBeLessThanOrEqual(4);
  });

  it('forgets everything after two idle windows, and nothing still being answered', async () => {
    const { answers, runs, ask, at } = clocked();
    let finish: (reply: FrameReply) => void = () => undefined;
    const slow = answers.answer('slow', () => new Promise<FrameReply>((resolve) => (finish = resolve)));
    await ask('done');
    at(500_000);
    // The frame still in flight is answered once, to the resend too; the settled one runs again.
    const resent = answers.answer('slow', async () => ack('slow', { again: true }));
    await ask('done');
    expect(runs.get('done')).toBe(2);
    finish(ack('slow'));
    expect(await resent).toBe(await slow);
    expect(await slow).toEqual(ack('slow'));
  });

  it('still bounds the refs across both windows, the oldest out first', async () => {
    let now = 0;
    const answers = new RecentAnswers(3, 1024 * 1024, 60_000, () => now);
    const { runs, ask } = asker(answers);
    await ask('a');
    await ask('b');
    now = 61_000;
    await ask('c');
    await ask('d');
    expect(answers.size).toBe(3);
    await ask('b');
    await ask('a');
    expect([runs.get('a'), runs.get('b')]).toEqual([2, 1]);
  });
});
