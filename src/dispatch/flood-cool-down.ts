import { errors } from '../errors/errors.js';

const FLOOD_COOL_DOWN_MS = 10_000;
/** Past this many phones cooling down, those whose time is up are forgotten. */
const PRUNE_ABOVE = 10_000;

/** Phones closed for flooding frames, and until when their new sockets are refused (a reconnect costs Postgres writes). */
export class FloodCoolDown {
  private readonly until = new Map<string, number>();

  /** Throws rate_limited while the phone cools down. */
  refuseIfCooling(deviceId: string): void {
    const waitMs = (this.until.get(deviceId) ?? 0) - Date.now();
    if (waitMs > 0) throw errors.rateLimited('this phone was disconnected for flooding frames; reconnect later', waitMs / 1000);
    this.until.delete(deviceId);
  }

  start(deviceId: string): void {
    if (this.until.size > PRUNE_ABOVE) for (const [id, until] of this.until) if (until < Date.now()) this.until.delete(id);
    this.until.set(deviceId, Date.now() + FLOOD_COOL_DOWN_MS);
  }
}
