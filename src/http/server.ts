import { nativeUws, type TemplatedApp, type us_listen_socket } from './uws.js';
import { registerRoute, type AnyRoute, type RouterDeps } from './router.js';
import { errorReply, sendReply } from './reply.js';
import { guarded } from './guard.js';
import { errors } from '../errors/errors.js';

export interface HttpServer {
  app: TemplatedApp;
  listen(host: string, port: number): Promise<number>;
  /** Stops accepting, then lets in-flight requests finish (up to graceMs). Sockets are closed by their owners. */
  close(graceMs?: number): Promise<void>;
}

// Any token is a method to uWS: an unknown one is logged as OTHER, not as whatever a client sent.
const KNOWN_METHODS: ReadonlySet<string> = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options']);

/** HTTPS instead of HTTP: a PEM file holding the server's key and certificate. */
export interface TlsFiles {
  keyAndCertFile: string;
}

export function createHttpServer(routes: AnyRoute[], deps: RouterDeps, extend?: (app: TemplatedApp) => void, tls?: TlsFiles): HttpServer {
  const uWS = nativeUws();
  const app = tls ? uWS.SSLApp({ key_file_name: tls.keyAndCertFile, cert_file_name: tls.keyAndCertFile }) : uWS.App();
  for (const route of routes) registerRoute(app, route, deps);
  extend?.(app);
  const dashboard = deps.dashboard || null;
  app.any(
    '/*',
    guarded(deps.log, 'any /*', (res, req, { state, requestId }) => {
      const startedAt = performance.now();
      const path = req.getUrl();
      const method = req.getMethod();
      // The dashboard's pages: any GET the API does not own (src/dashboard/static-files.ts).
      // Logged as one route each, `dashboard` or `unmatched`: the raw path would be unbounded.
      if ((method === 'get' || method === 'head') && dashboard?.owns(path)) {
        const reply = dashboard.reply(path, /\bgzip\b/.test(req.getHeader('accept-encoding')));
        sendReply(res, state, requestId, reply);
        deps.accessLog?.({ requestId, method: method.toUpperCase(), route: 'dashboard', status: reply.status, startedAt, aborted: false });
        return;
      }
      sendReply(res, state, requestId, errorReply(errors.notFound('route'), requestId));
      deps.accessLog?.({ requestId, method: KNOWN_METHODS.has(method) ? method.toUpperCase() : 'OTHER', route: 'unmatched', status: 404, startedAt, aborted: false });
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
