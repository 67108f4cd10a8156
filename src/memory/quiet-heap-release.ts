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

/**
 * After a burst, V8 keeps the old generation it grew (the heap limit follows the burst's live
 * size) and gives it back to the system only when its own memory reducer gets round to it, seconds
 * to minutes later: an API that served a bulk send held ~100 MB of old space with ~35 MB in use,
 * and 10,000 phone sockets opened after it stood on top of that (bench/README.md). So once the
 * process has been quiet for a whole check (event loop busy under 10% of it) and the old
 * generation has grown `slackMb` past what it held after the last such collection, it collects
 * once: a pause of ~10–40 ms, taken only when nothing much waits on it, and a quiet process is
 * not collected over and over. 0: off.
 */
export function releaseHeapWhenQuiet(slackMb: number, log: Logger): HeapRelease {
  if (slackMb <= 0) return { stop() {} };
  const collect = exposedGc();
  let lastLoop = performance.eventLoopUtilization();
  // What the old space held after the last collection made here (at first, at start-up): V8
  // counts its dead objects as used until it marks them, so only growth past this says a burst
  // left something to give back.
  let floor = oldSpaceSize();
  const timer = setInterval(() => {
    const loop = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(loop, lastLoop).utilization;
    lastLoop = loop;
    if (busy >= QUIET_UTILIZATION) return;
    const before = oldSpaceSize();
    if (before < floor + slackMb * MB) return;
    const started = performance.now();
    collect();
    floor = oldSpaceSize();
    log.debug({ ms: Math.round(performance.now() - started), oldSpaceMb: [Math.round(before / MB), Math.round(floor / MB)] }, 'heap released while quiet');
  }, CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

function oldSpaceSize(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_size ?? 0;
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
