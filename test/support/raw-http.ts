import net from 'node:net';

/** One answer read off a raw socket, or how the connection ended without one. */
export interface RawResponse {
  /** 0 when the connection closed (or timed out) before a full answer. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Why there is no answer: 'closed' (the server hung up) or 'timeout'. */
  ended?: 'closed' | 'timeout';
}

export interface RawOptions {
  /** Close our side right after writing (a truncated request). Default: keep it open until answered. */
  endAfterWrite?: boolean;
  timeoutMs?: number;
}

/**
 * Writes bytes exactly as given on a fresh TCP connection and reads one HTTP/1.1 answer (by its
 * Content-Length). fetch and every HTTP client re-encode what they send; this does not, which is
 * what testing the server's reading of raw bytes needs. The socket is destroyed once answered.
 */
export function rawRequest(url: string, bytes: Buffer | string, opts: RawOptions = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (r: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => finish({ status: 0, headers: {}, body: received.toString('latin1'), ended: 'timeout' }), opts.timeoutMs ?? 15_000);
    socket.on('connect', () => {
      if (opts.endAfterWrite) socket.end(bytes);
      else socket.write(bytes);
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parseResponse(received);
      if (parsed) finish(parsed);
    });
    socket.on('error', () => finish({ status: 0, headers: {}, body: '', ended: 'closed' }));
    socket.on('close', () => finish({ status: 0, headers: {}, body: received.toString('latin1'), ended: 'closed' }));
  });
}

function parseResponse(buf: Buffer): RawResponse | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (buf.length < end + 4 + length) return undefined;
  return { status: Number(statusLine!.split(' ')[1]), headers, body: buf.subarray(end + 4, end + 4 + length).toString('utf8') };
}

/** A request as bytes: the request line and headers joined by CRLF, the blank line, then the body. */
export function rawHttp(requestLine: Buffer | string, headers: (Buffer | string)[], body: Buffer | string = ''): Buffer {
  const crlf = Buffer.from('\r\n');
  const parts: Buffer[] = [bytes(requestLine), crlf];
  for (const h of headers) parts.push(bytes(h), crlf);
  parts.push(crlf, Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'));
  return Buffer.concat(parts);
}

/** Strings are taken one character per byte (write any byte as `\xNN`). */
const bytes = (x: Buffer | string) => (Buffer.isBuffer(x) ? x : Buffer.from(x, 'latin1'));
