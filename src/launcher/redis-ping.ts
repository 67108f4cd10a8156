import { connect } from 'node:net';

/**
 * One PING over a raw socket. 'pong' when Redis serves requests, 'busy' while
 * it is not listening yet or still loading its append-only file.
 */
export function pingRedis(port: number, timeoutMs = 1_000): Promise<'pong' | 'busy'> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const finish = (result: 'pong' | 'busy'): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => finish('busy'));
    socket.once('error', () => finish('busy'));
    socket.once('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG') ? 'pong' : 'busy');
    });
  });
}
