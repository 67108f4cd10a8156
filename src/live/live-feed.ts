import type { AppContext } from '../context/app-context.js';
import type { TemplatedApp, WebSocket } from '../http/uws.js';
import { authenticatedUpgrade } from '../http/socket-upgrade.js';
import { refuseCrossSite } from '../http/same-origin.js';
import { sessionAuthenticator } from '../auth/authenticate-session.js';
import { scopesOfRole, type MemberPrincipal } from '../auth/principal.js';
import { liveSessionsAmong } from '../auth/sql/select-live-sessions-among.js';
import { every } from '../periodic/every.js';
import { errors } from '../errors/errors.js';
import { orgSignatures } from './sql/select-org-signatures.js';

export const LIVE_PATH = '/dashboard/v1/live';
/** Sockets one organization may hold on one API process (a tab each). */
const SOCKETS_PER_ORG = 200;
const POLL_MS = 1000;
/** How soon a socket follows its session: ended, moved to another organization, member removed or role changed. */
const SESSION_CHECK_MS = 2000;
/** Close codes the dashboard reads (docs/dashboard-api.md). */
export const LIVE_CLOSE = { sessionEnded: 4401 } as const;

interface LiveData {
  principal: MemberPrincipal;
}

export interface LiveFeed {
  close(): void;
}

/**
 * The dashboard's server push (docs/dashboard-api.md). Each API process watches, once a second,
 * the organizations that have a dashboard open on it: cheap reads that change when messages,
 * phones or webhooks change, whichever process changed them. A change is pushed as a one-line
 * frame naming what changed; pages refetch what they show. Frames carry no data, so a socket too
 * slow to take one simply misses it: the next change or the page's own fallback catches up.
 */
export function attachLiveFeed(app: TemplatedApp, ctx: AppContext): LiveFeed {
  const authenticate = sessionAuthenticator(ctx);
  const byOrg = new Map<string, Set<WebSocket<LiveData>>>();
  const last = new Map<string, Record<string, string>>();

  app.ws<LiveData>(LIVE_PATH, {
    maxPayloadLength: 1024,
    idleTimeout: 60,
    maxBackpressure: 64 * 1024,
    closeOnBackpressureLimit: true as unknown as number,
    sendPingsAutomatically: true,
    upgrade: authenticatedUpgrade(ctx.log, LIVE_PATH, {
      read: (req) => ({
        cookie: req.getHeader('cookie') || undefined,
        browser: { origin: req.getHeader('origin'), host: req.getHeader('host'), secFetchSite: req.getHeader('sec-fetch-site') },
      }),
      admit: async ({ cookie, browser }): Promise<LiveData> => {
        // A WebSocket is not bound by the same-origin policy: another site's page could open
        // one with the member's cookie, so the upgrade is held to the rule of a write.
        refuseCrossSite('post', browser);
        const principal = await authenticate(cookie);
        if ((byOrg.get(principal.orgId)?.size ?? 0) >= SOCKETS_PER_ORG) throw errors.rateLimited('too many dashboards open for this organization', 10);
        return { principal };
      },
      onUnexpected: (err, requestId) => ctx.log.warn({ err, requestId }, 'live feed refused'),
    }),
    open: (ws) => {
      const { principal } = ws.getUserData();
      let set = byOrg.get(principal.orgId);
      if (!set) byOrg.set(principal.orgId, (set = new Set()));
      set.add(ws);
      const hello = () => {
        // uWS forbids touching a closed socket; the set holds only open ones.
        if (byOrg.get(principal.orgId)?.has(ws)) ws.send(JSON.stringify({ type: 'hello', organizationId: principal.orgId }));
      };
      if (last.has(principal.orgId)) return hello();
      // The first socket of an organization: where things stand now is recorded before hello,
      // so that any change after hello is pushed.
      orgSignatures(ctx.db, [principal.orgId])
        .then((sigs) => {
          const sig = sigs.get(principal.orgId);
          if (sig && !last.has(principal.orgId) && byOrg.has(principal.orgId)) last.set(principal.orgId, sig);
        })
        .catch((err: unknown) => ctx.log.warn({ err }, 'live feed: first reading failed; the next poll takes it'))
        .finally(hello);
    },
    message: () => undefined,
    close: (ws) => {
      const { principal } = ws.getUserData();
      const set = byOrg.get(principal.orgId);
      set?.delete(ws);
      if (set?.size === 0) {
        byOrg.delete(principal.orgId);
        last.delete(principal.orgId);
      }
    },
  });

  const poll = every(POLL_MS, 'live-feed', ctx, async () => {
    if (byOrg.size === 0) return;
    const now = await orgSignatures(ctx.db, [...byOrg.keys()]);
    for (const [orgId, sig] of now) {
      const before = last.get(orgId);
      last.set(orgId, sig);
      if (!before) continue;
      for (const topic of Object.keys(sig)) {
        if (sig[topic] === before[topic]) continue;
        const frame = JSON.stringify({ type: topic });
        for (const ws of byOrg.get(orgId) ?? []) if (ws.getBufferedAmount() < 16 * 1024) ws.send(frame);
      }
    }
  });

  const sessions = every(SESSION_CHECK_MS, 'live-feed-sessions', ctx, async () => {
    const open = [...byOrg.values()].flatMap((set) => [...set].map((ws) => ({ ws, data: ws.getUserData() })));
    if (open.length === 0) return;
    const live = await liveSessionsAmong(ctx.db, [...new Set(open.map((o) => o.data.principal.sessionId))], ctx.config.sessionIdleMinutes);
    for (const { ws, data } of open) {
      // uWS forbids touching a closed socket: only those still in the set are (close() removes them).
      if (!byOrg.get(data.principal.orgId)?.has(ws)) continue;
      const now = live.get(data.principal.sessionId);
      if (!now || now.orgId !== data.principal.orgId) ws.end(LIVE_CLOSE.sessionEnded, 'session ended or left the organization');
      else if (now.role !== data.principal.role) data.principal = { ...data.principal, role: now.role, scopes: scopesOfRole(now.role) };
    }
  });

  return {
    close() {
      void poll.stop();
      void sessions.stop();
      for (const set of byOrg.values()) for (const ws of set) ws.end(1001, 'server shutting down');
    },
  };
}
