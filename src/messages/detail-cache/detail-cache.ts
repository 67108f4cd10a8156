/** A message's GET /v1/messages/{id} body, and the organization it answers for. */
export interface CachedDetail {
  orgId: string;
  json: string;
}

interface Entry extends CachedDetail {
  storedAt: number;
}

/**
 * Changed ids one map of recent changes holds before it becomes the older of the two kept: a read
 * that started before the older map's first change may have missed one, and its answer is not kept.
 */
const REMEMBERED = 4096;

/**
 * The bodies of GET /v1/messages/{id} this API process answered, so that a client polling a
 * message that has not changed costs no Postgres read. A body is kept only when no change of the
 * message was heard between the start of its read and its answer (the read may have seen the
 * message before that change committed); every change heard drops the body. Changes are heard
 * from this process's own writes at once and from the others through Redis
 * (message-changes.ts): while that subscription is down the cache is off and empty, and a body is
 * kept `ttlMs` at most, the bound on a change whose signal was lost. Oldest bodies go first once
 * `maxEntries` are held.
 */
export class MessageDetailCache {
  private readonly entries = new Map<string, Entry>();
  /** Counts the changes heard; a read remembers it when it starts. */
  private generation = 0;
  private clearedAt = 0;
  private recent = new Map<string, number>();
  private older = new Map<string, number>();
  /** Reads started before this generation may have missed a change no longer remembered. */
  private rememberedSince = 0;
  private recentSince = 0;
  private on = false;
  /** Reads started and not yet ended: only they need the changes remembered. */
  private reading = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get enabled(): boolean {
    return this.on && this.maxEntries > 0;
  }

  /**
   * Whether a change matters here: a body to drop, or a read under way that must not keep what
   * it read. A fleet's claims and reports, with no client polling, cost no more than this.
   */
  get watching(): boolean {
    return this.entries.size > 0 || this.reading > 0;
  }

  /** The change subscription is up: bodies may be kept from reads that start now. */
  enable(): void {
    this.clear();
    this.on = true;
  }

  /** The change subscription is down: changes may go unheard, so nothing is kept or answered. */
  disable(): void {
    this.on = false;
    this.clear();
  }

  get(id: string): CachedDetail | undefined {
    if (!this.on) return undefined;
    const e = this.entries.get(id);
    if (e === undefined) return undefined;
    if (this.now() - e.storedAt > this.ttlMs) {
      this.entries.delete(id);
      return undefined;
    }
    return e;
  }

  /** Called as a read starts; give what it returns to `keep`, or to `readEnded` when nothing is kept. */
  readStarted(): number {
    this.reading += 1;
    return this.generation;
  }

  readEnded(): void {
    this.reading -= 1;
  }

  /** Keeps the body of a read started at `started`, unless the message changed since; ends the read. */
  keep(id: string, detail: CachedDetail, started: number): void {
    this.readEnded();
    if (!this.enabled || started < this.clearedAt || started < this.rememberedSince) return;
    if ((this.recent.get(id) ?? -1) > started || (this.older.get(id) ?? -1) > started) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(id, { orgId: detail.orgId, json: detail.json, storedAt: this.now() });
  }

  /** These messages changed (committed): their bodies go, and reads under way keep nothing of them. */
  changed(ids: Iterable<string>): void {
    if (!this.watching) return;
    this.generation += 1;
    for (const id of ids) {
      this.entries.delete(id);
      this.recent.set(id, this.generation);
    }
    if (this.recent.size >= REMEMBERED) {
      this.older = this.recent;
      this.rememberedSince = this.recentSince;
      this.recent = new Map();
      this.recentSince = this.generation;
    }
  }

  /** Any message may have changed (months dropped, the subscription lost): nothing kept survives. */
  clear(): void {
    this.generation += 1;
    this.clearedAt = this.generation;
    this.entries.clear();
    this.recent = new Map();
    this.older = new Map();
    this.recentSince = this.generation;
    this.rememberedSince = this.generation;
  }
}
