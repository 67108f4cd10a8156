import { api } from '../lib/http.js';

/** Statuses a message does not leave: what "not stuck" means for the scenario. */
export const FINAL_STATUSES = new Set(['sent', 'delivered', 'failed', 'expired']);
/** Codes of the `claimed → queued` timeline event when a job is taken from its phone. */
const WITHDRAW_CODES = new Set(['claim_timeout', 'phone_silent', 'phone_limited']);

export interface Withdrawal {
  id: string;
  /** The timeline event's time, on the server's clock. */
  at: number;
  /** The phone the job left. */
  deviceId: string;
  code: string;
}

export interface MessageView {
  status: string;
  withdrawals: Withdrawal[];
}

interface Detail {
  status: string;
  events: Array<{ fromStatus: string | null; toStatus: string; code: string | null; deviceId: string | null; at: string }>;
}

/**
 * Each message's status and withdrawals, read through the public API (GET /v1/messages/{id}:
 * the same on a remote deployment), a few requests in flight. A message that cannot be read
 * maps to the reason.
 */
export async function readMessages(baseUrl: string, keyOf: (id: string) => string, ids: string[], inFlight = 8): Promise<Map<string, MessageView | string>> {
  const out = new Map<string, MessageView | string>();
  let next = 0;
  const loop = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const r = await api<Detail>(baseUrl, keyOf(id), 'GET', `/v1/messages/${id}`);
      if (r.status !== 200) {
        out.set(id, `${r.status} ${JSON.stringify(r.body).slice(0, 120)}`);
        continue;
      }
      const withdrawals = r.body.events
        .filter((e) => e.fromStatus === 'claimed' && e.toStatus === 'queued' && e.code !== null && WITHDRAW_CODES.has(e.code) && e.deviceId)
        .map((e) => ({ id, at: Date.parse(e.at), deviceId: e.deviceId!, code: e.code! }));
      out.set(id, { status: r.body.status, withdrawals });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, loop));
  return out;
}
