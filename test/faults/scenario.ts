/**
 * One scenario's world: its own organization (so counts, the daily counter and webhooks of one
 * scenario never mix with another's), an API key, a webhook endpoint on the suite's receiver,
 * phones, and a sender, all talking to the child processes of the shared topology.
 */
import { randomBytes } from 'node:crypto';
import { createApiKey } from '../../src/auth/api-key-admin.js';
import { SCOPES } from '../../src/auth/principal.js';
import { insertOrganization } from '../../src/orgs/sql/insert-organization.js';
import { Fleet } from './fleet.js';
import { Sender } from './sender.js';
import type { Topology } from './topology.js';

/** The event types the endpoint subscribes to: one per outcome a phone reports. */
export const WEBHOOK_TYPES = ['message.sent', 'message.delivered', 'message.failed'] as const;

export interface Scenario {
  name: string;
  orgId: string;
  key: string;
  fleet: Fleet;
  sender: Sender;
  /** Figures measured during the fault, printed and returned by the checks. */
  figures: Record<string, number | string>;
}

export async function openScenario(topo: Topology, name: string, opts: { apiUrl: () => string; phones: number }): Promise<Scenario> {
  const org = await insertOrganization(topo.ctx.db, { name: `faults-${name}-${randomBytes(4).toString('hex')}`, dailyLimit: 100_000 });
  const { secret: key } = await createApiKey(topo.ctx, { orgId: org.id, name: 'fault suite', scopes: SCOPES });
  const res = await fetch(`${opts.apiUrl()}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: topo.receiver.url, eventTypes: WEBHOOK_TYPES }),
  });
  if (res.status !== 201) throw new Error(`webhook endpoint not created: ${res.status} ${await res.text()}`);
  const fleet = new Fleet(topo.ctx, org.id);
  await fleet.add(opts.phones, opts.apiUrl());
  return { name, orgId: org.id, key, fleet, sender: new Sender(opts.apiUrl, key, name), figures: {} };
}

/** Polls until `check` gives a value (not undefined/false), or returns undefined after `timeoutMs`. */
export async function within<T>(timeoutMs: number, check: () => Promise<T | undefined | false> | T | undefined | false, everyMs = 100): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve(check()).catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Seconds since `since`, to one decimal. */
export const secondsSince = (since: number): number => Math.round((Date.now() - since) / 100) / 10;
