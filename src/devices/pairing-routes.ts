import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { Text } from '../schemas/schema-kit.js';
import { recordAudit } from '../audit/record-audit.js';
import { dashboardBaseUrl } from '../members/base-url.js';
import { createPairingCode } from './pairing.js';
import { pairingQrPayload } from './pairing-payload.js';
import { isLoopbackBase, lanNames, listensOnEveryInterface, phoneReachableBase } from '../tls/lan-names.js';
import { loadOrCreateLocalCa } from '../tls/local-ca.js';
import { CA_PATH } from '../tls/ca-route.js';

const CreatePairingBody = Type.Object({ name: Type.Optional(Text({ minLength: 1, maxLength: 128 })) }, { additionalProperties: false });

/** POST /dashboard/v1/pairings: the code a phone scans (QR) or types, valid 10 minutes. */
export function pairingRoutes(ctx: AppContext): AnyRoute[] {
  return [
    memberRoute({
      method: 'post',
      path: '/dashboard/v1/pairings',
      auth: { role: 'admin' },
      body: CreatePairingBody,
      clientAddress: true,
      summary: 'A one-time pairing code for a new phone, with the QR payload the app scans',
      handler: async (req) => {
        const { code, expiresAt } = await createPairingCode(ctx, req.principal.orgId, req.body.name);
        // The phone reaches the server where the member's browser does (or HAFATRA_PUBLIC_URL).
        const server = phoneReachableBase(dashboardBaseUrl(ctx.config, req.headers), ctx.config.https, lanNames(), listensOnEveryInterface(ctx.config.host));
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'pairing.created', detail: { name: req.body.name ?? null } });
        // SMS Gateway for Android: its API URL, and with HAFATRA_HTTPS the CA it must trust first.
        const ca = ctx.config.https ? await loadOrCreateLocalCa(ctx.config.dataDir) : null;
        return {
          status: 201,
          body: {
            code,
            expiresAt,
            server,
            // Still a loopback name: the server listens on this machine alone (HOST), or has no LAN address.
            serverReachable: !isLoopbackBase(server),
            qrPayload: pairingQrPayload(server, code),
            mobileApiUrl: `${server}/mobile/v1`,
            ca: ca ? { url: `${server}${CA_PATH}`, sha256: ca.fingerprint } : null,
          },
        };
      },
    }),
  ];
}
