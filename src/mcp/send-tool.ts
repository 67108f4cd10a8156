import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { HafatraApiError, type Hafatra } from '../../clients/typescript/src/index.js';
import { refusal, result } from './explain.js';
import { checkConfirmation, checkOptOuts, type DailyBudget, type RailSettings } from './send-rails.js';

const recipient = z.string().min(1).max(32);

async function optedOutNumbers(client: Hafatra): Promise<Set<string>> {
  const numbers = new Set<string>();
  for await (const entry of client.iterOptOuts({ limit: 100 })) numbers.add(entry.number);
  return numbers;
}

/** send_sms: one SMS to one or many recipients, behind the rails; each recipient becomes its own message. */
export function registerSendTool(server: McpServer, client: Hafatra, settings: RailSettings, budget: DailyBudget): void {
  server.registerTool(
    'send_sms',
    {
      title: 'Send an SMS',
      description: `Send one SMS text to one or many recipients (E.164 such as +261341234567, or national numbers of the organization's country) through the organization's phones. Each recipient becomes its own message; follow it with get_message. More than ${settings.confirmAbove} recipients need confirmRecipients equal to their count, given only after the user agreed. At most ${settings.dailyLimit} recipients per day through this server; opted-out numbers are refused.`,
      inputSchema: {
        to: z.union([recipient, z.array(recipient).min(1).max(500)]).describe('One recipient, or a list of 1 to 500'),
        body: z.string().min(1).max(1600).describe('The text (long texts are split into segments)'),
        confirmRecipients: z.number().int().positive().optional().describe(`Required above ${settings.confirmAbove} recipients: their exact count, after the user confirmed`),
        priority: z.enum(['normal', 'high']).optional(),
        sendAt: z.string().max(64).optional().describe('RFC 3339 time to send at (at most 30 days ahead); omitted: now'),
        validFor: z.number().int().min(60).max(86400).optional().describe('Seconds the message may wait for a phone before it expires'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async ({ to, body, confirmRecipients, priority, sendAt, validFor }) => {
      const recipients = typeof to === 'string' ? [to] : to;
      let taken = 0;
      try {
        checkConfirmation(recipients.length, confirmRecipients, settings);
        checkOptOuts(recipients, await optedOutNumbers(client));
        budget.take(recipients.length);
        taken = recipients.length;
        const sent = await client.sendMessages({ to, body, priority, sendAt, validFor });
        const optedOut = sent.messages.filter((m) => m.failureCode === 'opted_out').map((m) => m.to);
        return result({
          batchId: sent.batchId,
          messages: sent.messages.map((m) => ({ id: m.id, to: m.to, status: m.status, failureCode: m.failureCode, segments: m.segments })),
          ...(optedOut.length > 0 ? { note: `Not sent to ${optedOut.join(', ')}: opted out (the message reads failed, opted_out).` } : {}),
        });
      } catch (error) {
        // Refused by the API: nothing was sent. A lost connection may have sent it: the budget keeps it.
        if (error instanceof HafatraApiError) budget.giveBack(taken);
        return refusal(error);
      }
    },
  );
}
