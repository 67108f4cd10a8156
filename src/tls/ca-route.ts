import type { TemplatedApp } from '../http/uws.js';
import { guarded, replySafely } from '../http/guard.js';
import type { AccessLog } from '../http/access-log.js';
import type { Logger } from '../logging/logger.js';
import type { LocalCa } from './local-ca.js';

export const CA_PATH = '/hafatra-ca.crt';

/**
 * GET /hafatra-ca.crt: the local CA's certificate (DER, the type Android's certificate installer
 * opens), for the phones to install. Public like any CA certificate: no credential, so a phone's
 * browser can fetch it from the pairing dialog's QR code.
 */
export function attachCaDownload(app: TemplatedApp, ca: LocalCa, deps: { log: Logger; accessLog?: AccessLog }): void {
  app.get(
    CA_PATH,
    guarded(deps.log, `get ${CA_PATH}`, (res, _req, { state, requestId }) => {
      const startedAt = performance.now();
      const status = replySafely(
        res,
        state,
        requestId,
        {
          status: 200,
          raw: { body: ca.certificate, contentType: 'application/x-x509-ca-cert' },
          headers: { 'content-disposition': 'attachment; filename="hafatra-ca.crt"', 'cache-control': 'no-cache' },
        },
        deps.log,
      );
      deps.accessLog?.({ requestId, method: 'GET', route: CA_PATH, status, startedAt, aborted: state.aborted });
    }),
  );
}
