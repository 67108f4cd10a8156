import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { status } from '../lib/progress.js';
import { bar } from '../lib/progress.js';
import type { PhoneCredential } from '../target/target.js';
import type { ChaosBatch, ChaosSettings, FleetEvent, FleetStart } from './protocol.js';

export interface Fleet {
  connected: number;
  failed: number;
  firstError?: string;
  /** messageId → when its job frame reached a phone (first time only). */
  jobsAt: Map<string, number>;
  deliveredAt: Map<string, number>;
  problems: string[];
  stop(): Promise<void>;
}

export interface FleetOptions {
  baseUrl: string;
  phones: PhoneCredential[];
  mode: FleetStart['mode'];
  /** mode chaos: each phone's role, and what the chaos phones record, as it comes. */
  chaos?: ChaosSettings;
  onChaos?: (b: ChaosBatch) => void;
  /** The socket's `maxJobs` (the server's default, 100, when unset). */
  maxJobs?: number;
  batch?: number;
  heartbeatMs?: number;
  /** The CPU the fleet process is pinned to (it inherits the bench's CPU when unset). */
  label: string;
}

/** Starts the phone-fleet process and resolves once every phone has connected or failed to. */
export async function startFleet(o: FleetOptions): Promise<Fleet> {
  const script = fileURLToPath(new URL('./fleet-process.ts', import.meta.url));
  const child: ChildProcess = fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const fleet: Fleet = {
    connected: 0,
    failed: 0,
    jobsAt: new Map(),
    deliveredAt: new Map(),
    problems: [],
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'stop' });
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(kill);
    },
  };
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`phone fleet exited (${code})`)));
    child.on('message', (e: FleetEvent) => {
      if (e.type === 'progress') status(`${o.label} connecting ${bar((e.connected + e.failed) / o.phones.length)} ${e.connected} up, ${e.failed} failed`);
      if (e.type === 'ready') {
        Object.assign(fleet, { connected: e.connected, failed: e.failed, firstError: e.firstError });
        resolve();
      }
      if (e.type === 'jobs') for (const [id, t] of e.items) if (!fleet.jobsAt.has(id)) fleet.jobsAt.set(id, t);
      if (e.type === 'delivered') for (const [id, t] of e.items) fleet.deliveredAt.set(id, t);
      if (e.type === 'problem') fleet.problems.push(e.message);
      if (e.type === 'chaos') o.onChaos?.(e);
    });
  });
  const start: FleetStart = {
    type: 'start',
    socketUrl: `${o.baseUrl.replace(/^http/, 'ws')}/device/v1/socket${o.maxJobs ? `?maxJobs=${o.maxJobs}` : ''}`,
    phones: o.phones,
    mode: o.mode,
    chaos: o.chaos,
    batch: o.batch ?? 200,
    heartbeatMs: o.heartbeatMs ?? 30_000,
  };
  child.send(start);
  await ready;
  return fleet;
}
