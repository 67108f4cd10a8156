import v8 from 'node:v8';
import vm from 'node:vm';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../logging/logger.js';

export interface HeapRelease {
  stop(): void;
}

const MB = 1024 * 1024;
/** A process busier than this share of a check's interval is not quiet. */
const QUIET_UTILIZATION = 0.1;
const CHECK_MS = 1_000;
/** A young generation left grown by a burst too small for the old generation's trigger goes back after this long quiet. */
const YOUNG_AFTER_QUIET_MS = 8_000;
const YOUNG_MB = 4;

/**
 * After a burst, V8 keeps the heap it grew and gives it back to the system only when its own
 * memory reducer gets round to it, seconds to minutes later: an API that served a bulk send held
 * ~100 MB of old space with ~35 MB in use, and 10,000 phone sockets opened after it stood on top
 * of that (bench/README.md). So, checking each second whether the process was quiet (event loop
 * busy under 10% of that second), it collects once:
 * - when it is quiet and the old generation has grown `slackMb` past what it held after the last
 *   such collection (at first, at start-up);
 * - when it has stayed quiet for YOUNG_AFTER_QUIET_MS since it was last busy, with a young
 *   generation over YOUNG_MB: this one also frees what the old generation gained below `slackMb`.
 * Each is V8's collection for low memory (lowMemoryCollection), which also shrinks the young
 * generation (32 MB after any load) to its start size: a pause of ~100–200 ms, taken only when
 * nothing much waits on it; a quiet process is not collected over and over. 0: off.
 */
export function releaseHeapWhenQuiet(slackMb: number, log: Logger): HeapRelease {
  if (slackMb <= 0) return { stop() {} };
  let lastLoop = performance.eventLoopUtilization();
  // V8 counts its dead objects as used until it marks them, so only growth past what the last
  // collection left says a burst left something to give back.
  let floor = spaceSize('old_space');
  let quietMs = 0;
  let youngTried = false;
  let collecting = false;
  const release = async (why: string) => {
    collecting = true;
    const before = { old: spaceSize('old_space'), young: spaceSize('new_space') };
    const started = performance.now();
    try {
      await lowMemoryCollection();
      floor = spaceSize('old_space');
      const after = { old: floor, young: spaceSize('new_space') };
      log.debug({ why, ms: Math.round(performance.now() - started), oldSpaceMb: [mb(before.old), mb(after.old)], youngMb: [mb(before.young), mb(after.young)] }, 'heap released while quiet');
    } catch (err) {
      log.warn({ err }, 'heap release failed');
    } finally {
      collecting = false;
    }
  };
  const timer = setInterval(() => {
    if (collecting) return;
    const loop = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(loop, lastLoop).utilization;
    lastLoop = loop;
    if (busy >= QUIET_UTILIZATION) {
      quietMs = 0;
      youngTried = false;
      return;
    }
    quietMs += CHECK_MS;
    if (spaceSize('old_space') >= floor + slackMb * MB) void release('old generation grew');
    else if (!youngTried && quietMs >= YOUNG_AFTER_QUIET_MS && spaceSize('new_space') > YOUNG_MB * MB) {
      youngTried = true;
      void release('young generation idle');
    }
  }, CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

function spaceSize(name: 'old_space' | 'new_space'): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === name)?.space_size ?? 0;
}

const mb = (bytes: number) => Math.round(bytes / MB);

/**
 * V8's collection for low memory, asked in-process through the inspector protocol
 * (HeapProfiler.collectGarbage; no port is opened): everything it can free, the freed pages
 * handed back at once, and the young generation shrunk to its start size. A process with 48 MB
 * live after a burst went from 276 to 104 MB resident in 193 ms; gc() of --expose-gc took 62 ms
 * and left 139 MB, its young generation at the 32 MB the burst grew it to (V8 shrinks it there
 * only when its allocation rate of the last seconds is low and not nil). A Node built without
 * the inspector gets that gc().
 */
async function lowMemoryCollection(): Promise<void> {
  let Session: typeof import('node:inspector').Session;
  try {
    ({ Session } = await import('node:inspector'));
  } catch {
    exposedGc()();
    return;
  }
  const session = new Session();
  session.connect();
  try {
    await new Promise<void>((resolve, reject) => session.post('HeapProfiler.collectGarbage', (err) => (err ? reject(err) : resolve())));
  } finally {
    session.disconnect();
  }
}

/**
 * V8's full collection, which Node exposes only to a process started with --expose-gc: the flag
 * is set for the one context made here, then unset, so no other code sees a global gc().
 */
function exposedGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  v8.setFlagsFromString('--no-expose-gc');
  return gc;
}
