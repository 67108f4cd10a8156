import net from 'node:net';

/** One HTTP response as it came off the wire. */
export interface RawResponse {
  version: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * A raw TCP connection to an HTTP server: bytes go out exactly as given (HTTP/1.0, pipelining,
 * a client that never reads), and what comes back is parsed by content-length, nothing hidden.
 */
export interface RawConnection {
  socket: net.Socket;
  /** Bytes received so far (none while paused). */
  bytes(): Buffer;
  /** Settles when the server closed the connection (or it failed). */
  closed: Promise<void>;
  isClosed(): boolean;
  send(data: string | Buffer): void;
  /** Waits for `count` complete responses; rejects if the connection closes first. */
  responses(count: number, timeoutMs?: number): Promise<RawResponse[]>;
}

export async function connectRaw(port: number, host = '127.0.0.1'): Promise<RawConnection> {
  const socket = net.connect(port, host);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  // Chunks are joined only when read: joining on every chunk is quadratic on a large body.
  const chunks: Buffer[] = [];
  let length = 0;
  const received = () => {
    if (chunks.length > 1) chunks.splice(0, chunks.length, Buffer.concat(chunks));
    return chunks[0] ?? Buffer.alloc(0);
  };
  let isClosed = false;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  socket.on('data', (d) => {
    chunks.push(d);
    length += d.length;
    wake();
  });
  socket.on('error', () => undefined); // a reset is an outcome the tests assert through `closed`
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      wake();
      resolve();
    }),
  );
  return {
    socket,
    bytes: received,
    closed,
    isClosed: () => isClosed,
    send: (data) => void socket.write(data),
    responses: (count, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        let wanted = 0; // bytes the next complete response needs, once its head is known
        const check = () => {
          if (length < wanted && !isClosed) return;
          const buf = received();
          const parsed = parseResponses(buf);
          wanted = nextNeeds(buf, parsed);
          if (parsed.length >= count) return done(() => resolve(parsed.slice(0, count)));
          if (isClosed) done(() => reject(new Error(`connection closed after ${parsed.length} of ${count} responses (${length} bytes)`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`no ${count} responses within ${timeoutMs} ms (${length} bytes)`))), timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      }),
  };
}

/** How many bytes `buf` must reach before another response can be complete. */
function nextNeeds(buf: Buffer, parsed: RawResponse[]): number {
  let at = 0;
  for (const r of parsed) at = buf.indexOf('\r\n\r\n', at) + 4 + r.body.length;
  const headEnd = buf.indexOf('\r\n\r\n', at);
  if (headEnd < 0) return buf.length + 1;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(buf.subarray(at, headEnd).toString('latin1'));
  return headEnd + 4 + Number(length?.[1] ?? 0);
}

/** Complete responses at the start of `buf` (framed by content-length; bodiless otherwise). */
export function parseResponses(buf: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  for (;;) {
    const headEnd = buf.indexOf('\r\n\r\n', at);
    if (headEnd < 0) return out;
    const [statusLine, ...lines] = buf.subarray(at, headEnd).toString('latin1').split('\r\n');
    const [version, status] = statusLine!.split(' ');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = headEnd + 4;
    if (buf.length < bodyStart + length) return out;
    out.push({ version: version!, status: Number(status), headers, body: buf.subarray(bodyStart, bodyStart + length) });
    at = bodyStart + length;
  }
}

export const rawGet = (path: string, extra = '', version = '1.1') => `GET ${path} HTTP/${version}\r\nHost: localhost\r\n${extra}\r\n`;
