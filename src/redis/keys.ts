/**
 * Every Redis key Hafatra uses is built here and nowhere else. Keys of one organization share
 * the hash tag `{o:<orgId>}` so multi-key scripts run on Redis Cluster too; API-key keys share
 * `{k:<hash16>}`.
 */
export function redisKeys(prefix: string) {
  const org = (orgId: string) => {
    const base = `${prefix}:{o:${orgId}}`;
    return {
      dailyCount: (utcDay: string) => `${base}:daily:${utcDay}`,
      idempotency: (key: string) => `${base}:idem:${key}`,
      /** Send requests admitted (counted on the daily counter) and not yet finished: see lua/releaseSend-3.lua. */
      sendReservations: () => `${base}:reserved`,
      orgQueue: () => `${base}:q`,
      deviceQueue: (deviceId: string) => `${base}:q:dev:${deviceId}`,
      queueMeta: () => `${base}:qmeta`,
      /** Messages a claim took off a queue and Postgres has not confirmed yet (id -> claim time). */
      claiming: () => `${base}:claiming`,
      /** A phone's dispatch state (hash: revoked, outbound, draining, pace, simCap, defaultSim, nets, prefixes, …), read by the claim script. */
      deviceState: (deviceId: string) => `${base}:dev:${deviceId}`,
      /** Sending phones by network (sorted set of `<carrier>|<deviceId>`): an off-net message waits while another is on its network. */
      netPhones: () => `${base}:netphones`,
      /** Prefix of a phone's pacing keys: <prefix>w (its rolling 60 s window) and <prefix><sim>:d<yyyymmdd> (each SIM's day). */
      pacingPrefix: (deviceId: string) => `${base}:pace:${deviceId}:`,
    };
  };
  const apiKey = (hashHex: string) => {
    const base = `${prefix}:{k:${hashHex.slice(0, 16)}}`;
    return { record: () => `${base}:rec:${hashHex}`, bucket: () => `${base}:bucket:${hashHex}` };
  };
  return {
    org,
    apiKey,
    /** Failed sign-ins of a client address and of an email (lua/countSignInFailures-2.lua); hashed, never the email itself. */
    signInFailures: (address: string, emailHash: string) => ({
      byAddress: `${prefix}:{signin}:addr:${address}`,
      byEmail: `${prefix}:{signin}:email:${emailHash}`,
    }),
    /**
     * Scheduled sends (src/scheduling/): `due`, the batches waiting for their sendAt (member batch
     * id, score sendAt ms), and `moving`, those a mover took (member `<batchId>:<sendAt ms>`,
     * score the end of its lease). One hash tag: lua/takeDueBatches-2.lua moves between them.
     */
    schedule: () => ({ due: `${prefix}:{sched}:due`, moving: `${prefix}:{sched}:moving` }),
    /** Marker written after the schedule was rebuilt from Postgres; its absence means Redis lost data. */
    scheduleBuilt: () => `${prefix}:schedule-built`,
    /** Marker written after the queues were rebuilt from Postgres; its absence means Redis lost data. */
    queuesBuilt: () => `${prefix}:queues-built`,
    deviceChannel: () => `${prefix}:device-events`,
    /** Daily counters seeded from Postgres after a data loss, to count again (member `<orgId>|<yyyymmdd>`, scored by when). */
    dailyRecounts: () => `${prefix}:daily-recounts`,
    /** An endpoint's deliveries in flight across every worker process (lua/acquireWebhookSlots-1.lua). */
    webhookSlots: (endpointId: string) => `${prefix}:webhook-slots:${endpointId}`,
    /** Present while BullMQ holds every undelivered delivery; gone after Redis lost its data. */
    webhooksQueued: () => `${prefix}:webhooks:queued-from-postgres`,
    /**
     * The prefixes BullMQ builds its own keys under. The parse queue's is hash-tagged so BullMQ's
     * scripts run on Redis Cluster; the delivery queue's is not, and changing it now would strand
     * the jobs already queued under it.
     */
    bullPrefix: { mobileMoney: () => `${prefix}:{bull}`, webhooks: () => prefix },
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;

/** The UTC day a daily counter belongs to, as yyyymmdd. */
export function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10).replaceAll('-', '');
}

export function secondsToNextUtcDay(now = new Date()): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.ceil((next - now.getTime()) / 1000);
}
