import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export function portOf(url: string): number {
  return Number(new URL(url).port);
}

export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls until nothing listens on any of `ports`; false if something still does after `timeoutMs`. */
export async function portsCloseWithin(ports: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await Promise.all(ports.map(acceptsConnections));
    if (!open.includes(true)) return true;
    await sleep(50);
  }
  return false;
}
