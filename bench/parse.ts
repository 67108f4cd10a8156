import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { readMobileMoney } from '../src/mobile-money/reading/index.js';

interface Sms {
  from: string;
  body: string;
}

function loadCorpus(): Sms[] {
  const url = new URL('../test/fixtures/mobile-money/corpus.json', import.meta.url);
  const cases = JSON.parse(readFileSync(url, 'utf8')) as Sms[];
  return cases.map(({ from, body }) => ({ from, body }));
}

/**
 * Reads the corpus over and over on this one thread for `seconds` and reports SMS per second.
 * Checks the clock once per corpus pass so timing does not dominate the loop.
 */
export async function runParseBench({ seconds }: { seconds: number }): Promise<{ smsPerSecond: number }> {
  const corpus = loadCorpus();
  for (let i = 0; i < 200; i += 1) for (const sms of corpus) readMobileMoney(sms); // warm-up (JIT)
  let read = 0;
  let sink = 0;
  const started = process.hrtime.bigint();
  const budgetNs = BigInt(Math.round(seconds * 1e9));
  let elapsedNs = 0n;
  while (elapsedNs < budgetNs) {
    for (const sms of corpus) sink += readMobileMoney(sms)?.amountMinor ?? 0;
    read += corpus.length;
    elapsedNs = process.hrtime.bigint() - started;
  }
  if (sink < 0) console.log(sink); // keeps the results observable
  return { smsPerSecond: Math.round(read / (Number(elapsedNs) / 1e9)) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { smsPerSecond } = await runParseBench({ seconds: 3 });
  console.log(`mobile-money parse: ${smsPerSecond} SMS/s on one core`);
}
