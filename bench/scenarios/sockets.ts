import { startFleet, type Fleet } from '../phones/fleet.js';
import { residentMb } from '../lib/memory.js';
import { timed } from '../lib/progress.js';
import { sleep } from '../lib/stats.js';
import { startScript } from '../target/processes.js';
import type { PhoneCredential } from '../target/target.js';
import type { Scenario } from './scenario.js';

const PHONES_PER_ORG = 1_000;

/** Holds the sockets for `seconds` and returns the highest RSS seen in that time. */
async function holdAndSample(pid: number | undefined, seconds: number, label: string): Promise<number | undefined> {
  let peak: number | undefined;
  const sample = async () => {
    const mb = await residentMb(pid);
    if (mb !== undefined) peak = Math.max(peak ?? 0, mb);
  };
  await timed(
    label,
    seconds,
    (async () => {
      for (let i = 0; i < seconds; i += 1) {
        await sample();
        await sleep(1000);
      }
      await sample();
    })(),
  );
  return peak;
}

/** The memory floor: the bare uWebSockets.js server holding the same number of idle sockets. */
async function helloSocketsRss(phones: PhoneCredential[], seconds: number, cpu: number): Promise<{ rss?: number; connected: number }> {
  const { child, port } = await startScript('ceilings/hello-uws.ts', [], cpu, 'hello-uws');
  let fleet: Fleet | undefined;
  try {
    fleet = await startFleet({ baseUrl: `http://127.0.0.1:${port}`, phones, mode: 'idle', label: 'ceiling sockets' });
    return { rss: await holdAndSample(child.proc.pid, seconds, 'ceiling sockets hold'), connected: fleet.connected };
  } finally {
    await fleet?.stop();
    await child.stop();
  }
}

export const sockets: Scenario = {
  name: 'sockets',
  method:
    'Opens idle phone sockets (10,000 in the full run) from a separate phone-fleet process, 200 upgrades at a time, each ' +
    "authenticated with its own device token; every phone heartbeats on open and every 30 s. Reads the API process's VmRSS " +
    'from /proc before, and at its peak while the sockets are held. Ceiling: the bare uWebSockets.js server holding as many.',
  async run({ target, settings }) {
    const count = settings.sockets;
    const groups = await target.phoneGroups(Math.ceil(count / PHONES_PER_ORG), Math.min(count, PHONES_PER_ORG));
    const phones = groups.flatMap((g) => g.phones).slice(0, count);
    const before = await residentMb(target.apiPid);
    const hold = settings.quick ? 1 : Math.max(3, settings.seconds);
    const fleet = await startFleet({ baseUrl: target.url, phones, mode: 'idle', label: 'sockets' });
    let peak: number | undefined;
    try {
      peak = await holdAndSample(target.apiPid, hold, `sockets hold ${fleet.connected}`);
    } finally {
      await fleet.stop();
    }
    const ceiling = target.kind === 'local' ? await helloSocketsRss(phones, hold, settings.apiCpu) : undefined;
    return {
      figures: [
        { key: 'sockets.held', label: 'phone sockets held', value: fleet.connected, unit: 'sockets', goal: { op: '>=', value: 10_000 } },
        {
          key: 'sockets.apiRssMb',
          label: `API resident memory with ${fleet.connected} sockets`,
          value: peak ?? Number.NaN,
          unit: 'MB',
          goal: { op: '<=', value: 400 },
          ceilingKey: 'sockets.ceiling.helloRssMb',
        },
        ...(ceiling?.rss !== undefined ? [{ key: 'sockets.ceiling.helloRssMb', label: `hello-world RSS with ${ceiling.connected} sockets (ceiling)`, value: ceiling.rss, unit: 'MB' }] : []),
      ],
      details: { requested: count, connected: fleet.connected, failed: fleet.failed, firstError: fleet.firstError, apiRssBeforeMb: before, apiRssPeakMb: peak, ceiling },
    };
  },
};
