import type { AppContext } from '../context/app-context.js';
import { findOrganization } from '../orgs/sql/find-organization.js';
import { errors } from '../errors/errors.js';
import { tallySince } from './sql/select-tally-since.js';
import { countDevicesByPresence } from './sql/count-devices-by-presence.js';
import { countWebhookEndpoints } from './sql/count-webhook-endpoints.js';
import { limitedToday } from '../limits/limited-requests.js';

const HOUR_MS = 3_600_000;
/** Statuses a message ends in that count for the delivery rate (cancelled is nobody's failure). */
const SETTLED = ['delivered', 'failed', 'expired', 'unknown'];

const startOfUtcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** GET /dashboard/v1/overview: today's messages (the daily limit's day, UTC), phones, webhooks. */
export async function overview(ctx: AppContext, orgId: string, now = new Date()) {
  const org = await findOrganization(ctx.db, orgId);
  if (!org) throw errors.notFound('organization');
  const [today, limited, devices, webhooks] = await Promise.all([
    tallySince(ctx.db, orgId, startOfUtcDay(now)),
    // Best effort: the overview still answers while Redis does not.
    limitedToday(ctx, orgId, now).catch(() => ({})),
    countDevicesByPresence(ctx.db, orgId, ctx.config.onlineWindowSeconds),
    countWebhookEndpoints(ctx.db, orgId),
  ]);
  const byStatus: Record<string, number> = {};
  for (const t of today) byStatus[t.status] = (byStatus[t.status] ?? 0) + t.count;
  const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const settled = SETTLED.reduce((a, s) => a + (byStatus[s] ?? 0), 0);
  return {
    today: { byStatus, total, dailyLimit: org.dailyLimit },
    deliveryRate: settled === 0 ? null : (byStatus.delivered ?? 0) / settled,
    devices,
    webhooks,
    limited,
  };
}

/** GET /dashboard/v1/stats/messages: per hour and status, every hour of the range present (zeros included). */
export async function messageStats(ctx: AppContext, orgId: string, range: '24h' | '7d', now = new Date()) {
  const hours = range === '24h' ? 24 : 24 * 7;
  const first = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS);
  const tallies = await tallySince(ctx.db, orgId, first);
  const buckets = Array.from({ length: hours }, (_, i) => ({ start: new Date(first.getTime() + i * HOUR_MS), byStatus: {} as Record<string, number> }));
  for (const t of tallies) {
    const b = buckets[Math.round((t.hour.getTime() - first.getTime()) / HOUR_MS)];
    if (b) b.byStatus[t.status] = (b.byStatus[t.status] ?? 0) + t.count;
  }
  return { range, bucketSeconds: 3600, buckets };
}
