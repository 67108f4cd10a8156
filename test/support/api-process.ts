import type { ChildProcess } from 'node:child_process';
import type { TestApp } from './harness.js';
import { startNode } from './nodes.js';

/** A real `hafatra api` child process sharing the test app's Postgres, Redis and key prefix. */
export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** kill -9: the process ends at once, whatever it was doing (a crash). */
  crash(): Promise<void>;
  stop(): void;
}

export async function startApiProcess(app: TestApp): Promise<ApiProcess> {
  const { config } = app.ctx;
  const node = await startNode('api', { databaseUrl: config.databaseUrl, redisUrl: config.redisUrl, redisPrefix: config.redisPrefix });
  return { url: node.url, child: node.child, crash: node.kill9, stop: node.sigterm };
}
