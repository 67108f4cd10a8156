import { connect } from 'node:net';
import { once } from 'node:events';

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b', '"': '"', '\\': '\\' };

/** The arguments of one MONITOR line (`+<time> [<db> <client>] "cmd" "arg" …`), unquoted as Redis quotes them (sdscatrepr). */
export function monitorArgs(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    m[1]!.replace(/\\(x[0-9a-f]{2}|.)/g, (_all, e: string) => (e.length === 3 ? String.fromCharCode(Number.parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? e))),
  );
}

/**
 * Every command Redis runs, from MONITOR on a plain socket. ioredis's `monitor()` can read the
 * first monitored lines as replies to its own commands when Redis is busy as it starts ("Command
 * queue state error", which failed a CI run): here the socket does nothing else.
 */
export async function monitorRedis(url: string, onCommand: (args: string[]) => void): Promise<{ close(): void }> {
  const { hostname, port, username, password } = new URL(url);
  const socket = connect(Number(port || 6379), hostname);
  await once(socket, 'connect');
  const bulk = (s: string) => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
  if (password) {
    const auth = username ? ['AUTH', decodeURIComponent(username), decodeURIComponent(password)] : ['AUTH', decodeURIComponent(password)];
    socket.write(`*${auth.length}\r\n${auth.map(bulk).join('')}`);
  }
  socket.write('*1\r\n$7\r\nMONITOR\r\n');
  // One +OK for AUTH, if sent, then MONITOR's: every line after that is a command.
  let oks = password ? 2 : 1;
  let pending = '';
  let settle: (err?: Error) => void;
  const ready = new Promise<void>((resolve, reject) => (settle = (err) => (err ? reject(err) : resolve())));
  socket.setEncoding('utf8');
  socket.on('error', (err) => settle(err));
  socket.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\r\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (oks > 0) {
        if (line !== '+OK') return settle(new Error(`Redis refused MONITOR: ${line}`));
        if (--oks === 0) settle();
      } else if (line.startsWith('+')) onCommand(monitorArgs(line));
    }
  });
  await ready;
  return { close: () => socket.destroy() };
}
