import http from 'node:http';
import type { PhoneCredential } from '../target/target.js';
import { nowMs } from '../lib/stats.js';

/**
 * A fleet of SMS Gateway for Android phones in the bench process, as lean as the protocol allows
 * (one event stream each, keep-alive HTTP): on MessageEnqueued a phone pulls (one pull at a time,
 * one more if told again meanwhile), then reports each new job Processed, Sent and Delivered, one
 * PATCH each as the app does. It records when each MessageEnqueued reached each phone, and when
 * each job was first pulled and reported delivered.
 */
export interface AppFleet {
  connected: number;
  failed: number;
  /** Every MessageEnqueued's arrival, by phone, in arrival order. */
  enqueuedAt: Map<string, number[]>;
  pulledAt: Map<string, number>;
  deliveredAt: Map<string, number>;
  problems: string[];
  stop(): Promise<void>;
}

const USER_AGENT = 'me.capcom.smsgateway/1.68.0';
function request(agent: http.Agent, url: URL, method: string, token: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'user-agent': USER_AGENT,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface Item {
  id: string;
  phoneNumbers: string[];
}

function report(id: string, to: string, state: string, states: Record<string, string>): string {
  return JSON.stringify([{ id, state, recipients: [{ phoneNumber: to, state }], states }]);
}

export async function startAppFleet(opts: { baseUrl: string; phones: PhoneCredential[] }): Promise<AppFleet> {
  const base = `${opts.baseUrl}/mobile/v1`;
  // Keep-alive connections shared by the fleet's calls (a phone's own pulls and reports are few at a time).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const fleet: AppFleet = { connected: 0, failed: 0, enqueuedAt: new Map(), pulledAt: new Map(), deliveredAt: new Map(), problems: [], stop: async () => {} };
  const streams: http.ClientRequest[] = [];
  const problem = (p: string) => {
    if (fleet.problems.length < 5) fleet.problems.push(p);
  };

  const phone = (cred: PhoneCredential) => {
    let pulling = false;
    let again = false;
    const wakes: number[] = [];
    fleet.enqueuedAt.set(cred.deviceId, wakes);
    const send = async (item: Item) => {
      const to = item.phoneNumbers[0]!;
      const states: Record<string, string> = { Pending: new Date().toISOString() };
      for (const state of ['Processed', 'Sent', 'Delivered']) {
        states[state] = new Date().toISOString();
        const r = await request(agent, new URL(`${base}/message`), 'PATCH', cred.token, report(item.id, to, state, states));
        if (r.status !== 204) problem(`PATCH ${r.status} ${r.text.slice(0, 100)}`);
      }
      fleet.deliveredAt.set(item.id, nowMs());
    };
    const pull = async (): Promise<void> => {
      if (pulling) {
        again = true;
        return;
      }
      pulling = true;
      try {
        do {
          again = false;
          const r = await request(agent, new URL(`${base}/message?order=lifo`), 'GET', cred.token);
          if (r.status !== 200) {
            problem(`GET /message ${r.status} ${r.text.slice(0, 100)}`);
            continue;
          }
          const fresh = (JSON.parse(r.text) as Item[]).filter((item) => !fleet.pulledAt.has(item.id));
          const at = nowMs();
          for (const item of fresh) fleet.pulledAt.set(item.id, at);
          void Promise.all(fresh.map(send)).catch((err: unknown) => problem(String(err)));
        } while (again);
      } catch (err) {
        problem(String(err));
      } finally {
        pulling = false;
      }
    };
    return new Promise<void>((resolve) => {
      const req = http.get(`${base}/events`, { headers: { authorization: `Bearer ${cred.token}`, 'user-agent': USER_AGENT, accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) {
          fleet.failed++;
          problem(`GET /events ${res.statusCode}`);
          res.resume();
          resolve();
          return;
        }
        fleet.connected++;
        resolve();
        void pull();
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let cut = buffer.indexOf('\n\n');
          while (cut !== -1) {
            const frame = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (frame.includes('event: MessageEnqueued')) {
              wakes.push(nowMs());
              void pull();
            }
            cut = buffer.indexOf('\n\n');
          }
        });
        res.on('error', () => undefined);
      });
      req.on('error', (err) => {
        fleet.failed++;
        problem(String(err));
        resolve();
      });
      streams.push(req);
    });
  };

  for (let i = 0; i < opts.phones.length; i += 50) await Promise.all(opts.phones.slice(i, i + 50).map(phone));
  fleet.stop = async () => {
    for (const s of streams) s.destroy();
    agent.destroy();
  };
  return fleet;
}
