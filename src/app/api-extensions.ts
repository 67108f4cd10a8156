import type { AppContext } from './context.js';
import type { ApiExtensions } from './api-server.js';

/** What the API process adds beyond the route table: phone authentication and sockets. */
export function apiExtensions(_ctx: AppContext): ApiExtensions {
  return {};
}
