import { runParseBench } from '../parse.js';
import { timed } from '../lib/progress.js';
import type { Scenario } from './scenario.js';

export const parse: Scenario = {
  name: 'parse',
  method:
    'runParseBench (bench/parse.ts): the mobile-money corpus (test/fixtures/mobile-money/corpus.json) read over and over on ' +
    "the bench process's one thread (pinned to its CPU) after a JIT warm-up. No ceiling: it is pure CPU on one core.",
  async run({ settings }) {
    const seconds = Math.max(1, Math.min(settings.seconds, 5));
    const work = (async () => {
      await new Promise((r) => setTimeout(r, 50)); // let the progress line draw before the loop holds the thread
      return runParseBench({ seconds });
    })();
    const { smsPerSecond } = await timed('parse', seconds, work);
    return {
      figures: [{ key: 'parse.smsPerSecond', label: 'mobile-money SMS read per second, one core', value: smsPerSecond, unit: 'SMS/s', goal: { op: '>=', value: 20_000 } }],
    };
  },
};
