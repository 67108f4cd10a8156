import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';

type Frame = Record<string, unknown>;

/**
 * A WebSocket relay between a phone and the API, standing in for the network: it can lose
 * frames on their way to the phone, cut every connection, and passes the server's refusal of
 * an upgrade (401) through unchanged. Frames are relayed whole, so the protocol sees only
 * what a flaky network would do to it.
 */
export class SocketProxy {
  /** Return true to lose a server → phone frame. */
  dropToPhone: (frame: Frame) => boolean = () => false;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly pairs = new Set<{ phone: WebSocket; upstream: WebSocket }>();

  private constructor(
    private readonly server: Server,
    private readonly target: string,
  ) {}

  static async start(targetBaseUrl: string): Promise<SocketProxy> {
    const server = createServer((_req, res) => res.writeHead(404).end());
    const proxy = new SocketProxy(server, targetBaseUrl.replace(/^http/, 'ws'));
    server.on('upgrade', (req, socket, head) => proxy.relay(req.url ?? '/', req.headers.authorization, req, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    const address = this.server.address() as { port: number };
    return `http://127.0.0.1:${address.port}`;
  }

  /** Cuts every relayed connection at once, as a lost network would (no close frames). */
  cutAll(): void {
    for (const { phone, upstream } of this.pairs) {
      phone.terminate();
      upstream.terminate();
    }
  }

  async close(): Promise<void> {
    this.cutAll();
    this.wss.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(path: string, authorization: string | undefined, req: Parameters<WebSocketServer['handleUpgrade']>[0], socket: Duplex, head: Buffer): void {
    const upstream = new WebSocket(this.target + path, { headers: authorization ? { authorization } : {}, perMessageDeflate: false });
    upstream.on('unexpected-response', (_r, res) => {
      socket.end(`HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      upstream.terminate();
    });
    upstream.on('error', () => socket.destroy());
    upstream.on('open', () => {
      this.wss.handleUpgrade(req, socket, head, (phone) => this.pipe(phone, upstream));
    });
  }

  private pipe(phone: WebSocket, upstream: WebSocket): void {
    const pair = { phone, upstream };
    this.pairs.add(pair);
    phone.on('message', (data) => upstream.send(String(data)));
    upstream.on('message', (data) => {
      const text = String(data);
      if (!this.dropToPhone(JSON.parse(text) as Frame)) phone.send(text);
    });
    const end = (other: WebSocket) => (code: number, reason: Buffer) => {
      this.pairs.delete(pair);
      // 1005/1006 mean "no close frame": they cannot be sent, so the other side is cut instead.
      if (code === 1005 || code === 1006) other.terminate();
      else if (other.readyState === WebSocket.OPEN) other.close(code, reason);
    };
    phone.on('close', end(upstream));
    upstream.on('close', end(phone));
    phone.on('error', () => {});
    upstream.on('error', () => {});
  }
}
