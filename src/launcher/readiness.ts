import { sleep } from './process-info.js';
import type { ServiceProcess } from './service-process.js';

/**
 * Polls `probe` until it returns a value (undefined means "not yet"; a throw
 * means "never"). Fails fast, with the end of the server's log, when the server
 * exits; stops it when the probe throws or the server is too slow.
 */
export async function waitUntilReady<T>(service: ServiceProcess, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await throwIfExited(service);
    const value = await probe().catch(async (err: unknown) => {
      await throwIfExited(service);
      await service.stop(5_000);
      throw err;
    });
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      await service.stop(5_000);
      throw new Error(`${service.name} did not become ready within ${timeoutMs} ms; ${await service.describeLog()}`);
    }
    await sleep(20);
  }
}

async function throwIfExited(service: ServiceProcess): Promise<void> {
  const status = service.exitStatus();
  if (status !== undefined) {
    throw new Error(`${service.name} exited during startup (${status}); ${await service.describeLog()}`);
  }
}
