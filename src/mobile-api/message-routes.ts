import type { AppContext } from '../context/app-context.js';
import type { StatusReportWriter } from '../dispatch/status-reports.js';
import { errors } from '../errors/errors.js';
import { appJson, mobileRoute, noContent, type AnyMobileRoute } from './mobile-route.js';
import { pullMessages } from './pull-messages.js';
import { reportMessages } from './report-messages.js';
import { ReportBody } from './schemas.js';

/** GET and PATCH /message, and /messages, which the reference server serves as the same. */
export function messageRoutes(ctx: AppContext, writer: StatusReportWriter): AnyMobileRoute[] {
  return ['/message', '/messages'].flatMap((path) => [
    mobileRoute({
      method: 'get',
      path,
      auth: 'device',
      handler: async (req) => {
        const order = req.query.get('order') ?? 'lifo';
        if (order !== 'lifo' && order !== 'fifo') throw errors.invalid('order: must be lifo or fifo');
        return appJson(200, await pullMessages(ctx, req.device!, order));
      },
    }),
    mobileRoute({
      method: 'patch',
      path,
      auth: 'device',
      body: ReportBody,
      handler: async (req) => {
        await reportMessages(ctx, writer, req.device!, req.body);
        return noContent();
      },
    }),
  ]);
}
