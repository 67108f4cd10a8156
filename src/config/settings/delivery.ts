import { int, optionalInt, type Setting } from '../setting-kinds.js';

/** How messages wait, go to phones, and end; how often the worker looks after them. */
export const deliverySettings = {
  reconcileIntervalMs: {
    env: 'HAFATRA_RECONCILE_INTERVAL_MS',
    default: '1000',
    kind: int(10),
    doc: 'How often the worker queues send batches a crash left committed but not queued, and rebuilds lost dispatch queues.',
  },
  reconcileGraceMs: { env: 'HAFATRA_RECONCILE_GRACE_MS', default: '5000', kind: int(0), doc: 'Age after which a committed batch not yet queued is considered left behind.' },
  messageTtlSeconds: { env: 'HAFATRA_MESSAGE_TTL_SECONDS', default: '86400', kind: int(1), doc: 'How long a message may wait in the queue before it expires.' },
  messageRetentionDays: {
    env: 'HAFATRA_MESSAGE_RETENTION_DAYS',
    default: '',
    kind: optionalInt(1, 36500),
    doc: "Sent messages and their timelines are kept at least this many days: the worker drops each month's partition once all of it is older (so a message stays up to a month longer), never deleting rows one by one; a month still holding a message waiting or in a phone's hands is kept. Empty: kept for ever. (Received SMS bodies follow each organization's `retentionDays`.)",
  },
  unknownAfterSeconds: { env: 'HAFATRA_UNKNOWN_AFTER_SECONDS', default: '600', kind: int(1), doc: 'A claimed or sending message with no report for this long becomes unknown.' },
  onlineWindowSeconds: { env: 'HAFATRA_ONLINE_WINDOW_SECONDS', default: '300', kind: int(1), doc: 'A phone seen within this window is online; before it, stale.' },
  inboundFreshnessSeconds: {
    env: 'HAFATRA_INBOUND_FRESHNESS_SECONDS',
    default: '2700',
    kind: int(1),
    doc: 'How recent the default-SMS-app report must be for inbound to be unlocked (45 min).',
  },
  presenceLeaseSeconds: {
    env: 'HAFATRA_PRESENCE_LEASE_SECONDS',
    default: '30',
    kind: int(1),
    doc: "Each API process renews a lease in Postgres every third of this; the worker's sweep marks offline (socket.connected false) the phones of a process whose lease lapsed (a process killed without closing its sockets).",
  },
  sweepIntervalMs: { env: 'HAFATRA_SWEEP_INTERVAL_MS', default: '5000', kind: int(10), doc: 'How often the sweeps (expiry, silence, retention) run.' },
  claimTimeoutSeconds: {
    env: 'HAFATRA_CLAIM_TIMEOUT_SECONDS',
    default: '60',
    kind: int(0),
    doc: 'A job a phone has not acknowledged `sending` for this long after claiming it is withdrawn and goes to another phone (0: never).',
  },
  silentPhoneSeconds: {
    env: 'HAFATRA_SILENT_PHONE_SECONDS',
    default: '20',
    kind: int(0),
    doc: 'A phone whose socket is gone and that made no request for this long loses the jobs it has not acknowledged `sending` (0: only the claim timeout withdraws).',
  },
  limitCooldownSeconds: {
    env: 'HAFATRA_LIMIT_COOLDOWN_SECONDS',
    default: '60',
    kind: int(0),
    doc: 'A phone that reports a send failed with limit_exceeded (Android refused it for sending too fast) takes no new job for this long.',
  },
  pacingPerMinute: {
    env: 'HAFATRA_PACING_PER_MINUTE',
    default: '25',
    kind: int(1),
    doc: 'SMS parts a phone is handed per rolling 60 seconds, all its SIMs together, unless the device sets its own (Android lets an app send 30).',
  },
  offNetWaitSeconds: {
    env: 'HAFATRA_OFF_NET_WAIT_SECONDS',
    default: '20',
    kind: int(0, 3600),
    doc: "How long a queued message waits for a phone with a SIM on the recipient's network (organization carriers), when another phone is on it; after that any phone sends it. 0: never wait.",
  },
} as const satisfies Record<string, Setting>;
