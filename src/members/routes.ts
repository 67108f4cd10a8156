import type { AppContext } from '../context/app-context.js';
import type { AnyRoute } from '../http/router.js';
import { sessionRoutes } from './session-routes.js';
import { linkRoutes } from './link-routes.js';
import { memberRoutes } from './member-routes.js';

/** The dashboard's people: sessions, one-time links, membership. */
export function membersRoutes(ctx: AppContext): AnyRoute[] {
  return [...sessionRoutes(ctx), ...linkRoutes(ctx), ...memberRoutes(ctx)];
}
