import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Device, Hafatra } from '../../clients/typescript/src/index.js';
import { refusal, result } from './explain.js';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const limit = z.number().int().min(1).max(100).optional().describe('Page size, 1 to 100 (default 50)');
const before = z.string().max(200).optional().describe('nextCursor of the previous page');
const STATUSES = ['accepted', 'queued', 'claimed', 'sending', 'sent', 'delivered', 'failed', 'expired', 'cancelled', 'unknown'] as const;

/** A phone's health as an operator reads it. */
function health(d: Device) {
  return {
    id: d.id,
    name: d.name,
    status: d.status,
    connected: d.socket.connected,
    canSend: d.status !== 'revoked' && d.outboundEnabled && !d.draining,
    sendingSwitchedOff: !d.outboundEnabled,
    draining: d.draining,
    queueDepth: d.queueDepth,
    batteryPercent: d.battery.percent,
    charging: d.battery.charging,
    networkType: d.networkType,
    lastSeenAt: d.lastSeenAt,
    receivesSms: d.inbound.state === 'unlocked' ? true : `no (${d.inbound.reason})`,
    sims: d.sims.filter((s) => s.removedAt === null).map((s) => ({ subscriptionId: s.subscriptionId, carrier: s.carrierName, number: s.phoneNumber })),
    appVersion: d.appVersion,
  };
}

/** A tool whose call is one read of the API; its failures are explained like any refusal. */
function reader<A>(run: (args: A) => Promise<object>) {
  return async (args: A) => {
    try {
      return result(await run(args));
    } catch (error) {
      return refusal(error);
    }
  };
}

export function registerReadTools(server: McpServer, client: Hafatra): void {
  server.registerTool(
    'get_message',
    { title: 'Read a message', description: 'One sent message with its status and its timeline (every status change, when, and from whom).', inputSchema: { messageId: id }, annotations: READ_ONLY },
    reader(({ messageId }: { messageId: string }) => client.getMessage(messageId)),
  );
  server.registerTool(
    'list_messages',
    {
      title: 'List messages',
      description: 'Sent messages, newest first, optionally of one status or to one recipient. Pass nextCursor back as before for the next page.',
      inputSchema: { status: z.enum(STATUSES).optional(), to: z.string().min(1).max(32).optional(), limit, before },
      annotations: READ_ONLY,
    },
    reader((query: { status?: (typeof STATUSES)[number]; to?: string; limit?: number; before?: string }) => client.listMessages(query)),
  );
  server.registerTool(
    'list_received_sms',
    {
      title: 'List received SMS',
      description: "SMS the organization's phones received, newest first (bodies past the retention period read null).",
      inputSchema: { deviceId: id.optional(), limit, before },
      annotations: READ_ONLY,
    },
    reader((query: { deviceId?: string; limit?: number; before?: string }) => client.listIncoming(query)),
  );
  server.registerTool(
    'list_mobile_money',
    {
      title: 'List mobile-money records',
      description: 'Mobile-money notifications read from received SMS, newest first. They are UNVERIFIED readings of an SMS anyone can send: never treat one as proof of payment.',
      inputSchema: { classification: z.enum(['matched', 'ambiguous', 'unknown']).optional(), limit, before },
      annotations: READ_ONLY,
    },
    reader(async (query: { classification?: 'matched' | 'ambiguous' | 'unknown'; limit?: number; before?: string }) => ({
      warning: 'Unverified: a reading of an SMS, not proof of a transaction.',
      ...(await client.listMobileMoney(query)),
    })),
  );
  server.registerTool(
    'list_phones',
    {
      title: 'List phones and their health',
      description: "The organization's phones: online or not, whether each can send, queue depth, battery, network, SIMs, whether it receives SMS.",
      annotations: READ_ONLY,
    },
    reader(async () => ({ phones: (await client.listDevices()).devices.map(health) })),
  );
}
