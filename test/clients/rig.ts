import { startPhoneTestApp, pairTestPhone, type PhoneTestApp } from '../support/phones.js';
import { startWebhookWorkers, type WebhookWorkers } from '../../src/webhooks/workers.js';
import { SimulatedPhone } from '../../src/phone/simulated-phone.js';
import type { Config } from '../../src/config/config.js';

/**
 * What a client talks to: a real Hafatra API with its webhook workers (trusting the receiver's
 * certificate, local hosts allowed), an organization and its key, and a simulated phone paired
 * through the real flow that sends every job and reports it delivered.
 */
export interface ClientRig {
  app: PhoneTestApp;
  orgId: string;
  /** An API key with every scope. */
  key: string;
  phone: SimulatedPhone;
  deviceId: string;
  close(): Promise<void>;
}

export async function startClientRig(opts: { receiverCa?: string; config?: Partial<Config>; orgSettings?: Parameters<PhoneTestApp['createOrg']>[0] } = {}): Promise<ClientRig> {
  const app = await startPhoneTestApp({ webhookAllowHosts: ['localhost', '127.0.0.1'], webhookScheduleSeconds: [0, 1, 1], reconcileIntervalMs: 200, ...opts.config });
  let workers: WebhookWorkers | undefined;
  let phone: SimulatedPhone | undefined;
  try {
    workers = await startWebhookWorkers(app.ctx, { ca: opts.receiverCa });
    const { org, key } = await app.createOrg(opts.orgSettings);
    const paired = await pairTestPhone(app, org.id, { pacingPerMinute: 100_000 });
    phone = new SimulatedPhone({ baseUrl: app.url, token: paired.token, latencyMs: 20, deliveryDelayMs: 20, failureRate: 0, deliveryRate: 1, concurrency: 8, heartbeatIntervalMs: 0 });
    await phone.start();
    const started = { app, orgId: org.id, key, phone, deviceId: paired.deviceId };
    return {
      ...started,
      async close() {
        await phone?.stop();
        await workers?.close();
        await app.close();
      },
    };
  } catch (error) {
    await phone?.stop();
    await workers?.close();
    await app.close();
    throw error;
  }
}
