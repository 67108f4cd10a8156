import type { AppContext } from '../context/app-context.js';
import { deviceRoute, type AnyRoute } from '../http/router.js';
import { Type } from '@sinclair/typebox';
import { writeReports } from './status-reports.js';
import { ClaimBody, StatusReportsBody } from './schemas.js';
import { JobSchema } from '../dispatch-queue/job.js';
import { noSession } from './frame-handlers.js';

/** The HTTP fallback of the socket's claim and status frames, for phones that cannot hold a socket. */
export function dispatchRoutes(ctx: AppContext): AnyRoute[] {
  return [
    deviceRoute({
      method: 'post',
      path: '/device/v1/claim',
      auth: { device: true },
      body: ClaimBody,
      summary: 'Claim up to max queued messages for this phone',
      responses: { 200: Type.Object({ jobs: Type.Array(JobSchema) }) },
      handler: async (req) => {
        const result = await ctx.dispatch.claim(req.principal, req.body.max ?? 10);
        if (result.refused === 'revoked') throw noSession();
        return { status: 200, body: { jobs: result.jobs, ...(result.retryAfterMs > 0 ? { retryAfterMs: result.retryAfterMs } : {}) } };
      },
    }),
    deviceRoute({
      method: 'post',
      path: '/device/v1/status',
      auth: { device: true },
      body: StatusReportsBody,
      summary: 'Report progress of claimed messages',
      handler: async (req) => {
        const outcomes = await writeReports(
          ctx,
          req.body.reports.map((report) => ({ deviceId: req.principal.deviceId, report })),
        );
        return { status: 200, body: { results: outcomes } };
      },
    }),
  ];
}
