import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pickFreePort } from '../../src/launcher/free-port.js';
import { renderNginxConfig } from './nginx-config.js';

/** nginx on loopback in front of several API processes (Debian's nginx-light; CI installs it). */
export interface Balancer {
  url: string;
  port: number;
  /** Its error log so far (for a failing test's message). */
  errors(): Promise<string>;
  /** Its access log so far (format `hafatra` of nginx-config.ts). */
  accessLog(): Promise<string>;
  /** Fast shutdown (open phone sockets are cut), then the temp dir is removed. */
  stop(): Promise<void>;
}

export const NGINX_BINARY = process.env.HAFATRA_NGINX ?? '/usr/sbin/nginx';

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts nginx balancing over `upstreamPorts` on 127.0.0.1; resolves once it accepts connections. */
export async function startNginx(upstreamPorts: readonly number[]): Promise<Balancer> {
  const dir = await mkdtemp(join(tmpdir(), 'hafatra-nginx-'));
  const port = await pickFreePort();
  const config = renderNginxConfig({
    listen: `127.0.0.1:${port}`,
    upstream: upstreamPorts.map((p) => `127.0.0.1:${p}`),
    runtime: { dir, root: process.getuid?.() === 0 },
    workers: 1,
  });
  const file = join(dir, 'nginx.conf');
  await writeFile(file, config);
  // -e: the log nginx writes to before it has read the config (the built-in path may not exist).
  const child = spawn(NGINX_BINARY, ['-p', dir, '-c', file, '-e', join(dir, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawnFailed = new Promise<Error>((resolve) => child.once('error', resolve));
  const errors = () => readFile(join(dir, 'error.log'), 'utf8').catch(() => '');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (await accepts(port)) break;
    const failure = child.exitCode !== null ? new Error(`nginx exited (${child.exitCode}): ${stderr}${await errors()}`) : null;
    const timedOut = Date.now() > deadline ? new Error(`nginx did not listen on ${port} within 15 s: ${stderr}${await errors()}`) : null;
    const error = failure ?? timedOut ?? (await Promise.race([spawnFailed, new Promise<null>((r) => setTimeout(() => r(null), 50))]));
    if (error) {
      await stop();
      throw error;
    }
  }
  const accessLog = () => readFile(join(dir, 'access.log'), 'utf8').catch(() => '');
  return { url: `http://127.0.0.1:${port}`, port, errors, accessLog, stop };
}
