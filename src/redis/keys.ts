/**
 * Every Redis key Hafatra uses is built here and nowhere else. Keys of one organization share
 * the hash tag `{o:<orgId>}` so multi-key scripts run on Redis Cluster too; API-key keys share
 * `{k:<hash16>}`.
 */
export function redisKeys(prefix: string, opts: { cluster?: boolean } = {}) {
  const org = (orgId: string) => {
    const base = `${prefix}:{o:${orgId}}`;
    return {
      dailyCount: (utcDay: string) => `${base}:daily:${utcDay}`,
      /** Requests and frames refused by a fairness limit on a UTC day (hash: limit -> count), for the overview. */
      limited: (utcDay: string) => `${base}:limited:${utcDay}`,
      idempotency: (key: string) => `${base}:idem:${key}`,
      /** Send requests admitted (counted on the daily counter) and not yet finished: see lua/releaseSend-3.lua. */
      sendReservations: () => `${base}:reserved`,
      orgQueue: () => `${base}:q`,
      deviceQueue: (deviceId: string) => `${base}:q:dev:${deviceId}`,
      /** What every phone's deviceQueue key starts with, for the scripts that read many phones' queues. */
      deviceQueuePrefix: () => `${base}:q:dev:`,
      queueMeta: () => `${base}:qmeta`,
      /** Messages a claim took off a queue and Postgres has not confirmed yet (id -> claim time). */
      claiming: () => `${base}:claiming`,
      /** A phone's dispatch state (hash: DEVICE_STATE_FIELDS of src/dispatch-queue/device-state.ts), read by the claim script. */
      deviceState: (deviceId: string) => `${base}:dev:${deviceId}`,
      /** What every phone's deviceState key starts with, for the scripts that read or write many phones' states. */
      deviceStatePrefix: () => `${base}:dev:`,
      /** The organization's carrier prefix table as the claim script reads it (string: `+26132=orange,…`), one copy for all its phones. */
      carrierPrefixes: () => `${base}:prefixes`,
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
    /**
     * Password checks of a client address, of an account from that address, and of an account
     * from anywhere (lua/reservePasswordAttempt-3.lua); the account is a hash, never the email.
     */
    passwordAttempts: (address: string, accountHash: string) => ({
      byAddress: `${prefix}:{signin}:addr:${address}`,
      byAccountAndAddress: `${prefix}:{signin}:pair:${accountHash}:${address}`,
      byAccount: `${prefix}:{signin}:email:${accountHash}`,
    }),
    /**
     * Scheduled sends (src/scheduling/): `due`, the batches waiting for their sendAt (member batch
     * id, score sendAt ms), and `moving`, those a mover took (member `<batchId>:<sendAt ms>`,
     * score the end of its lease). One hash tag: lua/takeDueBatches-2.lua moves between them.
     */
    schedule: () => ({ due: `${prefix}:{sched}:due`, moving: `${prefix}:{sched}:moving` }),
    /** Marker written after the schedule was rebuilt from Postgres; its absence means Redis lost data. */
    scheduleBuilt: () => `${prefix}:schedule-built`,
    /** The cluster's masters when a worker last looked (src/app/shard-changes.ts). */
    clusterMasters: () => `${prefix}:cluster-masters`,
    /** Marker written after the queues were rebuilt from Postgres; its absence means Redis lost data. */
    queuesBuilt: () => `${prefix}:queues-built`,
    /**
     * The pub/sub channel of an organization's device signals (work, withdrawn, revoked): one of
     * SIGNAL_CHANNELS, each with its own hash tag, so on a cluster they spread over the shards
     * (sharded pub/sub) and every API process listens to all of them (src/redis/device-signals.ts).
     */
    deviceChannel: (orgId: string) => signalChannel(prefix, signalShardOf(orgId)),
    deviceChannels: () => Array.from({ length: SIGNAL_CHANNELS }, (_, shard) => signalChannel(prefix, shard)),
    /** The pub/sub channel of message changes, heard by every API process's cache of message bodies (src/messages/detail-cache/). */
    messageChanges: () => `${prefix}:{mc}:message-changes`,
    /** Daily counters seeded from Postgres after a data loss, to count again (member `<orgId>|<yyyymmdd>`, scored by when). */
    dailyRecounts: () => `${prefix}:daily-recounts`,
    /** An endpoint's deliveries in flight across every worker process (lua/acquireWebhookSlots-1.lua). */
    webhookSlots: (endpointId: string) => `${prefix}:webhook-slots:${endpointId}`,
    /** Present while BullMQ holds every undelivered delivery; gone after Redis lost its data. */
    webhooksQueued: () => `${prefix}:webhooks:queued-from-postgres`,
    /**
     * The prefixes BullMQ builds its own keys under: a queue's keys must share one hash tag for
     * BullMQ's scripts to run on a cluster. The parse queue's always has one; the delivery queue's
     * only on a cluster, because changing it on one Redis would strand the jobs already queued.
     */
    bullPrefix: { mobileMoney: () => `${prefix}:{bull}`, webhooks: () => (opts.cluster ? `${prefix}:{bullw}` : prefix) },
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;

/** Enough channels to spread signals over the shards of any cluster we expect; few enough that every API process listens to all. */
export const SIGNAL_CHANNELS = 16;

const signalChannel = (prefix: string, shard: number) => `${prefix}:{sig:${shard}}:device-events`;

/** FNV-1a of the organization id: stable across processes and releases, so publisher and listener agree. */
function signalShardOf(orgId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < orgId.length; i++) hash = Math.imul(hash ^ orgId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % SIGNAL_CHANNELS;
}

/** The UTC day a daily counter belongs to, as yyyymmdd. */
export function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10).replaceAll('-', '');
}

export function secondsToNextUtcDay(now = new Date()): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.ceil((next - now.getTime()) / 1000);
}
