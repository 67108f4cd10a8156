import { nativeUws, type TemplatedApp, type us_listen_socket } from './uws.js';
import { registerRoute, type AnyRoute, type RouterDeps } from './router.js';
import { errorReply, sendReply } from './reply.js';
import { guarded } from './guard.js';
import { errors } from '../errors/errors.js';
import { dashboardReply, isApiPath, loadDashboard } from '../dashboard/static-files.js';

export interface HttpServer {
  app: TemplatedApp;
  listen(host: string, port: number): Promise<number>;
  /** Stops accepting, then lets in-flight requests finish (up to graceMs). Sockets are closed by their owners. */
  close(graceMs?: number): Promise<void>;
}

export function createHttpServer(routes: AnyRoute[], deps: RouterDeps, extend?: (app: TemplatedApp) => void): HttpServer {
  const uWS = nativeUws();
  const app = uWS.App();
  for (const route of routes) registerRoute(app, route, deps);
  extend?.(app);
  const dashboard = deps.dashboard === false ? null : loadDashboard();
  app.any(
    '/*',
    guarded(deps.log, 'any /*', (res, req, { state, requestId }) => {
      const path = req.getUrl();
      const method = req.getMethod();
      // The dashboard's pages: any GET the API does not own (src/dashboard/static-files.ts).
      if ((method === 'get' || method === 'head') && !isApiPath(path) && deps.dashboard !== false) {
        sendReply(res, state, requestId, dashboardReply(dashboard, path, /\bgzip\b/.test(req.getHeader('accept-encoding'))));
        return;
      }
      sendReply(res, state, requestId, errorReply(errors.notFound('route'), requestId));
    }),
  );

  let listenSocket: us_listen_socket | null = null;
  return {
    app,
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        app.listen(host, port, (socket) => {
          if (!socket) return reject(new Error(`cannot listen on ${host}:${port}`));
          listenSocket = socket;
          resolve(uWS.us_socket_local_port(socket));
        });
      }),
    async close(graceMs = 10_000) {
      if (listenSocket) uWS.us_listen_socket_close(listenSocket);
      listenSocket = null;
      const deadline = Date.now() + graceMs;
      while (deps.inflight.count > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    },
  };
}
