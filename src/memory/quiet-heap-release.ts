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
/** V8 judges its allocation rate over the last ~5 s: a collection sooner after load keeps the young generation whole. */
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
 *   generation over YOUNG_MB: V8 shrinks the young generation (32 MB after any load, 1 MB at
 *   start) only in a full collection made once its allocation rate of the last ~5 s is low and
 *   not nil (a process that allocates nothing keeps it); this one also frees what the old
 *   generation gained below `slackMb`.
 * Each is a pause of ~10–40 ms, taken only when nothing much waits on it; a quiet process is not
 * collected over and over. 0: off.
 */
export function releaseHeapWhenQuiet(slackMb: number, log: Logger): HeapRelease {
  if (slackMb <= 0) return { stop() {} };
  const collect = exposedGc();
  let lastLoop = performance.eventLoopUtilization();
  // V8 counts its dead objects as used until it marks them, so only growth past what the last
  // collection left says a burst left something to give back.
  let floor = spaceSize('old_space');
  let quietMs = 0;
  let youngTried = false;
  const release = (why: string) => {
    const before = { old: spaceSize('old_space'), young: spaceSize('new_space') };
    const started = performance.now();
    collect();
    floor = spaceSize('old_space');
    const after = { old: floor, young: spaceSize('new_space') };
    log.debug({ why, ms: Math.round(performance.now() - started), oldSpaceMb: [mb(before.old), mb(after.old)], youngMb: [mb(before.young), mb(after.young)] }, 'heap released while quiet');
  };
  const timer = setInterval(() => {
    const loop = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(loop, lastLoop).utilization;
    lastLoop = loop;
    if (busy >= QUIET_UTILIZATION) {
      quietMs = 0;
      youngTried = false;
      return;
    }
    quietMs += CHECK_MS;
    if (spaceSize('old_space') >= floor + slackMb * MB) release('old generation grew');
    else if (!youngTried && quietMs >= YOUNG_AFTER_QUIET_MS && spaceSize('new_space') > YOUNG_MB * MB) {
      youngTried = true;
      release('young generation idle');
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
 * V8's full collection, which Node exposes only to a process started with --expose-gc: the flag
 * is set for the one context made here, then unset, so no other code sees a global gc().
 */
function exposedGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  v8.setFlagsFromString('--no-expose-gc');
  return gc;
}
