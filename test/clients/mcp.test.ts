import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { MCP_SCOPES } from '../../src/mcp/scopes.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { eventually, pairTestPhone } from '../support/phones.js';
import { runCliInProcess } from '../support/cli.js';
import { MOBILE_MONEY_SAMPLES } from '../../src/phone/sample-sms.js';
import { startClientRig, type ClientRig } from './rig.js';

/**
 * `hafatra mcp` as an agent meets it, driven by the MCP SDK's own client against a real Hafatra
 * with a simulated phone, with a key holding exactly the documented scopes: the real command in
 * its own process over stdio, and the same server in this process (an in-memory transport) for
 * the rails and refusals, where coverage sees its code.
 */
let rig: ClientRig;
const agents: Client[] = [];

/** The real `hafatra mcp` process over stdio. */
async function spawnedAgent(key: string, ...options: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/cli/entry.ts', 'mcp', '--url', rig.app.url, ...options],
    env: { ...getDefaultEnvironment(), HAFATRA_API_KEY: key },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'hafatra-test-agent', version: '1.0.0' });
  await client.connect(transport);
  agents.push(client);
  return client;
}

/** The same server in this process. */
async function agent(key: string, rails: { dailyLimit?: number; confirmAbove?: number } = {}, url = rig.app.url): Promise<Client> {
  const server = createMcpServer({ url, apiKey: key, dailyLimit: rails.dailyLimit ?? 100, confirmAbove: rails.confirmAbove ?? 10 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'hafatra-test-agent', version: '1.0.0' });
  await client.connect(clientSide);
  agents.push(client);
  return client;
}

type ToolResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: any };
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}
const text = (r: ToolResult) => r.content.map((c) => c.text ?? '').join('\n');

let mcp: Client;
let local: Client;

beforeAll(async () => {
  rig = await startClientRig();
  const { key } = await rig.app.createKey(rig.orgId, MCP_SCOPES);
  mcp = await spawnedAgent(key, '--daily-limit', '6', '--confirm-above', '3');
  local = await agent(key, { dailyLimit: 6, confirmAbove: 3 });
}, 60_000);
afterAll(async () => {
  for (const a of agents) await a.close();
  await rig?.close();
});

describe('hafatra mcp', () => {
  it('lists its tools, each described, send_sms with its confirmation field', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_message', 'list_messages', 'list_mobile_money', 'list_phones', 'list_received_sms', 'send_sms']);
    const send = tools.find((t) => t.name === 'send_sms')!;
    expect(Object.keys(send.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['to', 'body', 'confirmRecipients', 'sendAt', 'validFor']));
    expect(send.inputSchema.required).toEqual(expect.arrayContaining(['to', 'body']));
    expect(send.description).toMatch(/more than 3 recipients need confirmRecipients/i);
    expect(tools.find((t) => t.name === 'list_mobile_money')!.description).toMatch(/UNVERIFIED/);
  });

  it('sends an SMS, then reads it back delivered with its timeline and finds it in the list', async () => {
    const sent = await call(mcp, 'send_sms', { to: '+261340000501', body: 'Salama from an agent' });
    expect(sent.isError, text(sent)).toBeFalsy();
    const [message] = sent.structuredContent.messages;
    expect(message).toMatchObject({ to: '+261340000501', status: 'queued' });
    const delivered = await eventually(
      async () => {
        const read = await call(mcp, 'get_message', { messageId: message.id });
        return read.structuredContent?.status === 'delivered' && read;
      },
      20_000,
      'the message delivered',
    );
    expect(delivered.structuredContent.events.map((e: { toStatus: string }) => e.toStatus)).toEqual(['queued', 'claimed', 'sending', 'sent', 'delivered']);
    const listed = await call(mcp, 'list_messages', { to: '+261340000501' });
    expect(listed.structuredContent.messages.map((m: { id: string }) => m.id)).toEqual([message.id]);
  });

  it('lists the phones with their health, and the received SMS and mobile-money records', async () => {
    const phones = await call(local, 'list_phones');
    expect(phones.structuredContent.phones).toEqual([expect.objectContaining({ id: rig.deviceId, connected: true, canSend: true, queueDepth: expect.any(Number) })]);
    const payment = MOBILE_MONEY_SAMPLES[0]!;
    await rig.receive(payment.from, payment.body);
    const received = await call(local, 'list_received_sms', { limit: 10 });
    expect(received.structuredContent).toEqual({ messages: [expect.objectContaining({ from: payment.from, body: payment.body, deviceId: rig.deviceId })], nextCursor: null });
    const money = await eventually(
      async () => {
        const listed = await call(local, 'list_mobile_money', {});
        return listed.structuredContent?.events?.length === 1 && listed;
      },
      20_000,
      'the mobile-money reading',
    );
    expect(money.structuredContent).toMatchObject({ warning: expect.stringMatching(/Unverified/), events: [{ verification: 'unverified', amountMinor: 5_130_000 }] });
  });

  it('refuses a send to an opted-out number, sending nothing, and says why', async () => {
    const admin = await rig.app.request('POST', '/v1/opt-outs', { key: rig.key, body: { number: '+261340000666', reason: 'STOP' } });
    expect(admin.status).toBe(201);
    const refused = await call(local, 'send_sms', { to: ['+261340000502', '+261340000666'], body: 'Promo' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/Refused: \+261340000666 opted out.*Nothing was sent/);
    const listed = await call(local, 'list_messages', { to: '+261340000502' });
    expect(listed.structuredContent.messages).toEqual([]);
  });

  it('asks for confirmation above the threshold, sends once confirmed, and refuses past its daily limit', async () => {
    const four = ['+261340000511', '+261340000512', '+261340000513', '+261340000514'];
    const unconfirmed = await call(local, 'send_sms', { to: four, body: 'Meeting at 10' });
    expect(unconfirmed.isError).toBe(true);
    expect(text(unconfirmed)).toMatch(/4 recipients, more than 3.*confirmRecipients: 4/);
    const wrong = await call(local, 'send_sms', { to: four, body: 'Meeting at 10', confirmRecipients: 3 });
    expect(text(wrong)).toMatch(/confirmRecipients is 3 but this send has 4/);
    const confirmed = await call(local, 'send_sms', { to: four, body: 'Meeting at 10', confirmRecipients: 4 });
    expect(confirmed.isError, text(confirmed)).toBeFalsy();
    expect(confirmed.structuredContent.messages).toHaveLength(4);
    // 4 of 6 used today (the refused sends took none): three more recipients are refused, two are still allowed.
    const over = await call(local, 'send_sms', { to: ['+261340000521', '+261340000522', '+261340000523'], body: 'More' });
    expect(over.isError).toBe(true);
    expect(text(over)).toMatch(/6 recipients per day.*2 remain today; this send has 3/);
    expect((await call(local, 'send_sms', { to: ['+261340000521', '+261340000522'], body: 'Last' })).isError).toBeFalsy();
    expect(text(await call(local, 'send_sms', { to: '+261340000524', body: 'One more' }))).toMatch(/0 remain today/);
  });

  it("explains the organization's daily limit reached at the API, and a key without a needed scope", async () => {
    const limited = await rig.app.createOrg({ dailyLimit: 1 });
    await pairTestPhone(rig.app, limited.org.id);
    const limitedAgent = await agent((await rig.app.createKey(limited.org.id, MCP_SCOPES)).key);
    expect((await call(limitedAgent, 'send_sms', { to: '+261340000531', body: 'one' })).isError).toBeFalsy();
    const refused = await call(limitedAgent, 'send_sms', { to: '+261340000532', body: 'two' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/rate_limited.*daily message limit.*allows more in about .*Nothing was sent/s);

    const narrow = await agent((await rig.app.createKey(rig.orgId, ['messages:read'])).key);
    const phones = await call(narrow, 'list_phones');
    expect(phones.isError).toBe(true);
    expect(text(phones)).toContain(`it needs ${MCP_SCOPES.join(', ')}`);
  });

  it('says when Hafatra cannot be reached, and that a send may have been made', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const offline = await agent('hfk_x', {}, `http://127.0.0.1:${port}`);
    const phones = await call(offline, 'list_phones');
    expect(phones.isError).toBe(true);
    expect(text(phones)).toMatch(/could not be reached.*check list_messages before sending again/);
  });

  it('refuses to start without a key, with a bad address or a bad limit, saying what to fix', async () => {
    const noKey = await runCliInProcess(['mcp'], {});
    expect(noKey).toMatchObject({ code: 2, stdout: '' });
    expect(noKey.stderr).toContain(`set HAFATRA_API_KEY to an API key with the scopes ${MCP_SCOPES.join(', ')}`);
    const badUrl = await runCliInProcess(['mcp', '--url', 'localhost:3000'], { HAFATRA_API_KEY: 'hfk_x' });
    expect(badUrl).toMatchObject({ code: 2, stderr: expect.stringContaining('--url must be an http(s) address') });
    const badLimit = await runCliInProcess(['mcp', '--daily-limit', '0'], { HAFATRA_API_KEY: 'hfk_x' });
    expect(badLimit).toMatchObject({ code: 2, stderr: expect.stringContaining('--daily-limit must be an integer from 1 to 100000') });
  });
});
