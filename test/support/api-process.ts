import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestApp } from './harness.js';
import { eventually } from './phones.js';

/** A real `hafatra api` child process sharing the test app's Postgres, Redis and key prefix. */
export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** kill -9: the process ends at once, whatever it was doing (a crash). */
  crash(): Promise<void>;
  stop(): void;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });

export async function startApiProcess(app: TestApp): Promise<ApiProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { config } = app.ctx;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'api'], {
    env: { ...process.env, DATABASE_URL: config.databaseUrl, REDIS_URL: config.redisUrl, HAFATRA_REDIS_PREFIX: config.redisPrefix, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await eventually(
      async () =>
        await fetch(`${url}/openapi.json`).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
      'the second API process',
    );
  } catch (err) {
    child.kill('SIGKILL'); // else it outlives the test run
    throw err;
  }
  return {
    url,
    child,
    async crash() {
      child.kill('SIGKILL');
      await exited;
    },
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
