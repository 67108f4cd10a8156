import { startPhoneTestApp, pairTestPhone, type PhoneTestApp } from '../support/phones.js';
import { startWebhookWorkers, type WebhookWorkers } from '../../src/webhooks/workers.js';
import { SimulatedPhone } from '../../src/phone/simulated-phone.js';
import { startMobileMoneyWorker, type MobileMoneyWorker } from '../../src/mobile-money/parse-worker.js';
import type { Config } from '../../src/config/config.js';

/**
 * What a client talks to: a real Hafatra API with its webhook workers (trusting the receiver's
 * certificate, local hosts allowed) and its mobile-money reader, an organization and its key,
 * and a simulated phone paired through the real flow that sends every job and reports it
 * delivered (and reports the SMS a test makes it receive).
 */
export interface ClientRig {
  app: PhoneTestApp;
  orgId: string;
  /** An API key with every scope. */
  key: string;
  phone: SimulatedPhone;
  deviceId: string;
  /** The phone's device token (for a test that reports as the phone over HTTP). */
  deviceToken: string;
  /** The phone receives an SMS and reports it (as Android hands it to the app). */
  receive(from: string, body: string): Promise<void>;
  close(): Promise<void>;
}

let received = 0;

export async function startClientRig(opts: { receiverCa?: string; config?: Partial<Config>; orgSettings?: Parameters<PhoneTestApp['createOrg']>[0] } = {}): Promise<ClientRig> {
  const app = await startPhoneTestApp({ webhookAllowHosts: ['localhost', '127.0.0.1'], webhookScheduleSeconds: [0, 1, 1], reconcileIntervalMs: 200, ...opts.config });
  let workers: WebhookWorkers | undefined;
  let reader: MobileMoneyWorker | undefined;
  let phone: SimulatedPhone | undefined;
  const stop = async () => {
    await phone?.stop();
    await reader?.close();
    await workers?.close();
    await app.close();
  };
  try {
    workers = await startWebhookWorkers(app.ctx, { ca: opts.receiverCa });
    reader = startMobileMoneyWorker(app.ctx);
    const { org, key } = await app.createOrg(opts.orgSettings);
    const paired = await pairTestPhone(app, org.id, { pacingPerMinute: 100_000 });
    phone = new SimulatedPhone({ baseUrl: app.url, token: paired.token, latencyMs: 20, deliveryDelayMs: 20, failureRate: 0, deliveryRate: 1, concurrency: 8, heartbeatIntervalMs: 0 });
    await phone.start();
    const started = { app, orgId: org.id, key, phone, deviceId: paired.deviceId, deviceToken: paired.token };
    const receive = async (from: string, body: string) => {
      await phone!.client.sendIncoming({ clientId: `rig-${Date.now()}-${++received}`, from, body, receivedAt: new Date().toISOString() });
    };
    return { ...started, receive, close: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
