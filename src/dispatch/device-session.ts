import type { WebSocket } from '../http/uws.js';
import type { DevicePrincipal } from '../auth/principal.js';

export interface SocketData {
  principal: DevicePrincipal;
  session?: DeviceSession;
}

/**
 * One phone's live socket on this process. uWS forbids touching a WebSocket after its close
 * event, so every send goes through here and is dropped once `closed` is set.
 */
export class DeviceSession {
  closed = false;
  /** Jobs sent to the phone and not yet reported sent or failed: bounds what one phone holds. */
  outstanding = 0;
  pushing = false;
  pushAgain = false;
  retryTimer: NodeJS.Timeout | null = null;
  /** Settles when the open bookkeeping is done, with the socket generation it recorded. */
  opened: Promise<number | null> = Promise.resolve(null);

  constructor(readonly ws: WebSocket<SocketData>, readonly principal: DevicePrincipal) {}

  get deviceId(): string {
    return this.principal.deviceId;
  }

  send(frame: object): boolean {
    if (this.closed) return false;
    return this.ws.send(JSON.stringify(frame), false) !== 2;
  }

  end(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.ws.end(code, reason);
  }

  markClosed(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
